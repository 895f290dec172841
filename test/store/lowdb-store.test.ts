/**
 * The Store contract against the lowdb store, plus what only a file can do: survive a
 * reopen, refuse a corrupt file without touching it, create a missing one.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SlicedJsonFile } from '../../src/store/sliced-json-file.js';
import { ConfigError, openLowdbStore } from '../../src/index.js';
import { addDeliveries, delivery, fill, journalEntry, storeContract } from '../helpers/store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-lowdb-'));
let counter = 0;
const freshFile = () => join(dir, `store-${++counter}.json`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('lowdb store', (options) => openLowdbStore(freshFile(), options));

describe('lowdb store: the data file', () => {
  it('gives back every kind of record after close and reopen', async () => {
    const file = freshFile();
    const first = await openLowdbStore(file);
    fill(first);
    first.updateCampaign('ca', { status: 'sent' });
    const before = first.snapshot();
    await first.close();

    const second = await openLowdbStore(file);
    expect(second.snapshot()).toEqual(before);
    expect(second.getCampaign('ca')?.status).toBe('sent');
    expect(second.hasRecipient('cb', 'user-1')).toBe(true);
    expect(second.getTemplateChannel('app-a', 't1', 'ch1')?.content).toEqual({ title: 'Hi from ch1' });
    expect(second.queryDeliveries({ userId: 'user-2' }, { offset: 0, limit: 10 }).total).toBe(1);
    expect(second.stats()).toMatchObject({ deliveries: 2, notifications: 2, campaigns: 2, recipients: 2, journal: 2 });
    await second.close();
  });

  it('names the apps whose records it opened with, and none for a new file', async () => {
    const file = freshFile();
    const first = await openLowdbStore(file);
    expect(first.appsInInitialData()).toEqual([]);
    fill(first);
    first.addAnalyticsEvent({
      id: 'e1',
      appId: 'app-c',
      campaignId: 'x',
      userId: 'u',
      channelType: 'in_app',
      eventType: 'viewed',
      createdAt: '2030-01-01T00:00:00.000Z',
    });
    // Records added after opening do not count: open mode met those apps itself.
    expect(first.appsInInitialData()).toEqual([]);
    await first.close();
    const second = await openLowdbStore(file);
    expect([...second.appsInInitialData()].sort()).toEqual(['app-a', 'app-b', 'app-c']);
    await second.close();
  });

  it('reads journal entries of an older data file with the fields added since', async () => {
    const file = freshFile();
    const old = {
      id: 'j1',
      time: '2030-01-01T00:00:00.000Z',
      method: 'POST',
      path: '/api/notifications/send',
      appId: 'a',
      status: 500,
      errorCode: 'ERR_OPERATION_FAILED',
      scenario: 'outage',
      rule: 'rule 1: any request → fail with ERR_OPERATION_FAILED',
      durationMs: 1,
    };
    writeFileSync(file, JSON.stringify({ format: 'notification-emulator-data', version: 1, journal: [old] }));
    const store = await openLowdbStore(file);
    expect(store.getJournalEntry('j1')).toEqual({
      ...old,
      query: '',
      rules: [{ scenario: 'outage', index: 0, rule: old.rule }],
      requestHeaders: {},
      requestBody: null,
      requestBodyTruncated: false,
      responseBody: null,
      responseBodyTruncated: false,
    });
    expect(store.queryJournal({ scenario: 'outage' }, { offset: 0, limit: 5 }).total).toBe(1);
    await store.close();
  });

  it('keeps the dropped-deliveries count across a reopen', async () => {
    const file = freshFile();
    const first = await openLowdbStore(file, { maxDeliveries: 2 });
    addDeliveries(first, [delivery(1), delivery(2), delivery(3)]);
    await first.close();
    const second = await openLowdbStore(file, { maxDeliveries: 2 });
    expect(second.stats()).toMatchObject({ deliveries: 2, droppedDeliveries: 1 });
    await second.close();
  });

  it("persists a journal entry's rules set after it was added", async () => {
    const file = freshFile();
    const first = await openLowdbStore(file);
    first.addJournal(journalEntry(1));
    await first.flush();
    first.setJournalRules('j1', [{ scenario: 'blackout', index: 1, rule: 'rule 1: fail' }]);
    await first.close();
    const second = await openLowdbStore(file);
    expect(second.getJournalEntry('j1')).toMatchObject({ scenario: 'blackout', rules: [{ scenario: 'blackout' }] });
    await second.close();
  });

  it('writes changes to the file without an explicit flush, as whole JSON', async () => {
    const file = freshFile();
    const store = await openLowdbStore(file, { debounceMs: 10, maxWaitMs: 50 });
    for (let i = 0; i < 50; i++) addDeliveries(store, [delivery(i)]);
    await vi.waitFor(() => expect(JSON.parse(readFileSync(file, 'utf8')).deliveries).toHaveLength(50), {
      timeout: 5000,
    });
    await store.close();
  });

  it('writes one instant: a change made while a write is under way waits for the next write', async () => {
    // A campaign marks recipients sent while a large write is still being built: a file that
    // showed them sent without their deliveries would not agree with itself after a kill -9.
    const file = freshFile();
    const store = await openLowdbStore(file, { debounceMs: 60_000, maxWaitMs: 60_000 });
    fill(store);
    await store.flush();
    const states = () => {
      const data = JSON.parse(readFileSync(file, 'utf8'));
      return {
        deliveries: data.deliveries.length,
        campaign: data.campaigns.find((c: { id: string }) => c.id === 'ca').status,
        recipient: data.recipients.find((r: { id: string }) => r.id === 'ca-r1').status,
      };
    };
    expect(states()).toEqual({ deliveries: 2, campaign: 'draft', recipient: 'pending' });
    addDeliveries(store, [delivery(9)]); // something to write
    const writing = store.flush();
    // After the write has taken its state, before it serialises anything:
    addDeliveries(store, [delivery(10)]);
    store.updateCampaign('ca', { status: 'sending' });
    store.updateRecipient('ca', 'ca-r1', { status: 'sent', deliveryId: 'd10' });
    await writing;
    expect(states()).toEqual({ deliveries: 3, campaign: 'draft', recipient: 'pending' });
    await store.close();
    expect(states()).toEqual({ deliveries: 4, campaign: 'sending', recipient: 'sent' });
  });

  it('coalesces a burst of changes into one write, not one per change', async () => {
    const store = await openLowdbStore(freshFile(), { debounceMs: 60_000, maxWaitMs: 60_000 });
    const writes = vi.spyOn(SlicedJsonFile.prototype, 'write');
    try {
      for (let i = 0; i < 100; i++) addDeliveries(store, [delivery(i)]);
      await store.flush();
      await store.flush(); // nothing pending: no second write
      expect(writes).toHaveBeenCalledTimes(1);
    } finally {
      writes.mockRestore();
      await store.close();
    }
  });

  it('creates a missing file (and its folder) at open', async () => {
    const file = join(dir, 'nested', 'deeper', 'state.json');
    const store = await openLowdbStore(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      deliveries: [],
      campaigns: [],
      droppedDeliveries: 0,
    });
    await store.close();
  });

  it('leaves no temporary file behind after close', async () => {
    const sub = join(dir, 'clean');
    mkdirSync(sub);
    const store = await openLowdbStore(join(sub, 'data.json'));
    fill(store);
    await store.close();
    expect(readdirSync(sub)).toEqual(['data.json']);
  });

  it('refuses a corrupt file with a ConfigError naming it, and leaves it untouched', async () => {
    const file = freshFile();
    writeFileSync(file, '{"deliveries": [ {"id": ');
    const error = await openLowdbStore(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(file);
    expect((error as ConfigError).message).toMatch(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{"deliveries": [ {"id": ');
  });

  it('refuses JSON that is not an emulator data file', async () => {
    const array = freshFile();
    writeFileSync(array, '[1, 2]');
    await expect(openLowdbStore(array)).rejects.toThrow(ConfigError);
    const wrongField = freshFile();
    const text = JSON.stringify({ format: 'notification-emulator-data', version: 1, deliveries: 'many' });
    writeFileSync(wrongField, text);
    await expect(openLowdbStore(wrongField)).rejects.toThrow(/"deliveries": must be a list of records/);
    expect(readFileSync(wrongField, 'utf8')).toBe(text);
  });

  it('writes the mark first, and reads an empty file as a new one', async () => {
    const file = freshFile();
    writeFileSync(file, '');
    const store = await openLowdbStore(file);
    fill(store);
    await store.close();
    expect(readFileSync(file, 'utf8')).toMatch(/^\{"format":"notification-emulator-data","version":1,"deliveries":\[/);
  });

  it('refuses a path it cannot read with a ConfigError naming it', async () => {
    const folder = join(dir, 'a-folder.json');
    mkdirSync(folder);
    const error = await openLowdbStore(folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(folder);
  });
});
