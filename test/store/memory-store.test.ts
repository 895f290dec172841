/**
 * The Store contract against the in-memory store, and what only it is configured with.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import { ALL, journalEntry, storeContract } from '../helpers/store-contract.js';

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
