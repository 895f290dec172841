/**
 * The Store contract against the in-memory store, and what only it is configured with.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import { ALL, addDeliveries, delivery, journalEntry, recipient, storeContract } from '../helpers/store-contract.js';
import {
  campaign,
  channel,
  notification,
  runtimeTemplate,
  templateChannel,
} from '../helpers/store-contract/records.js';

storeContract('memory store', async (options) => createMemoryStore(options));

describe('memory store: the journal body budget', () => {
  const body = (chars: number) => 'x'.repeat(chars);

  it('drops the oldest entries once the bodies kept pass it, and counts them', () => {
    const store = createMemoryStore({ maxJournalBodyChars: 100 });
    for (let n = 1; n <= 4; n++) store.addJournal(journalEntry(n, { requestBody: body(30), responseBody: body(10) }));
    // 4 × 40 = 160 characters: j1 and j2 go, and 80 stay.
    expect(store.queryJournal({}, ALL).items.map((e) => e.id)).toEqual(['j3', 'j4']);
    expect(store.stats()).toMatchObject({ journal: 2, droppedJournal: 2 });
  });

  it('keeps the newest entry even when its bodies alone pass it', () => {
    const store = createMemoryStore({ maxJournalBodyChars: 100 });
    store.addJournal(journalEntry(1, { requestBody: body(10) }));
    store.addJournal(journalEntry(2, { requestBody: body(150) }));
    expect(store.queryJournal({}, ALL).items.map((e) => e.id)).toEqual(['j2']);
  });
});

describe('memory store: its revision', () => {
  it('changes with each write of what the inspect lists read, and not with a read', () => {
    const store = createMemoryStore();
    const writes: [string, () => void][] = [
      ['addDeliveries', () => addDeliveries(store, [delivery(1)])],
      ['addNotification', () => store.addNotification(notification(1))],
      ['addCampaign', () => store.addCampaign(campaign('c1'))],
      ['updateCampaign', () => store.updateCampaign('c1', { name: 'Renamed' })],
      ['addRecipients', () => store.addRecipients('c1', [recipient('c1', 1)])],
      ['updateRecipient', () => store.updateRecipient('c1', recipient('c1', 1).id, { status: 'sent' })],
      ['addJournal', () => store.addJournal(journalEntry(1))],
      ['setJournalRules', () => store.setJournalRules(journalEntry(1).id, [])],
      ['putRuntimeTemplate', () => store.putRuntimeTemplate(runtimeTemplate('t1'))],
      ['putChannel', () => store.putChannel(channel('ch1', 'app-a'))],
      ['putTemplateChannel', () => store.putTemplateChannel(templateChannel('t1', 'ch1'))],
      ['clear one app', () => store.clear('app-a')],
      ['reset', () => store.reset()],
      ['restore', () => store.restore(store.snapshot())],
    ];
    const reads = () => {
      store.queryDeliveries({}, ALL);
      store.queryJournal({}, ALL);
      store.queryNotifications({}, ALL);
      store.listRecipients('c1', {}, ALL);
      store.countDeliveriesByTime({}, 60_000);
      store.stats();
    };
    for (const [name, write] of writes) {
      const before = store.revision();
      reads();
      expect(store.revision(), `reads before ${name}`).toBe(before);
      write();
      expect(store.revision(), name).not.toBe(before);
    }
  });
});
