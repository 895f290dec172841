/**
 * The JournalStore port (src/domain/ports/journal.ts): filters, order and the cap.
 * Part of the store contract (storeContract in ../store-contract.ts), run against every store.
 */
import { describe, expect, it } from 'vitest';
import type { JournalStore, StoreLifecycle } from '../../../src/domain/ports.js';
import { ALL, at, ids, journalEntry, type MakeStore } from './records.js';

export function journalContract(make: MakeStore<JournalStore & Pick<StoreLifecycle, 'stats'>>): void {
  describe('journal', () => {
    it('keeps the journal with its filters', async () => {
      const store = await make();
      store.addJournal(journalEntry(1));
      store.addJournal(
        journalEntry(2, {
          method: 'GET',
          path: '/api/templates',
          status: 401,
          errorCode: 'ERR_UNAUTHORIZED',
          appId: null,
        }),
      );
      store.addJournal(journalEntry(3, { scenario: 'outage', status: 500 }));
      const q = (filter: object) => ids(store.queryJournal(filter, ALL).items);
      expect(q({})).toEqual(['j1', 'j2', 'j3']);
      expect(q({ method: 'get' })).toEqual(['j2']);
      expect(q({ path: '/api/templates', status: 401, errorCode: 'ERR_UNAUTHORIZED' })).toEqual(['j2']);
      expect(q({ appId: 'app-a', scenario: 'outage' })).toEqual(['j3']);
      expect(q({ since: Date.parse(at(2)) })).toEqual(['j2', 'j3']);
      expect(ids(store.queryJournal({}, { ...ALL, order: 'desc' }).items)).toEqual(['j3', 'j2', 'j1']);
      expect(ids(store.queryJournal({ appId: 'app-a' }, { offset: 1, limit: 5, order: 'desc' }).items)).toEqual(['j1']);
      expect(store.getJournalEntry('j2')).toMatchObject({ id: 'j2', status: 401 });
      expect(store.getJournalEntry('nope')).toBeUndefined();
    });

    it('filters the journal by body text (request or response) and by any applied rule', async () => {
      const store = await make();
      store.addJournal(journalEntry(1, { requestBody: '{"userId":"ada"}' }));
      store.addJournal(journalEntry(2, { responseBody: '{"id":"ada-2"}' }));
      store.addJournal(
        journalEntry(3, {
          scenario: 'b',
          rule: 'rule 1',
          rules: [
            { scenario: 'a', index: 2, rule: 'rule 2' },
            { scenario: 'b', index: 1, rule: 'rule 1' },
          ],
        }),
      );
      const q = (filter: object) => ids(store.queryJournal(filter, ALL).items);
      expect(q({ bodyContains: 'ada' })).toEqual(['j1', 'j2']);
      expect(q({ bodyContains: 'ADA' })).toEqual([]);
      expect(q({ scenario: 'a' })).toEqual(['j3']);
      expect(q({ scenario: 'b' })).toEqual(['j3']);
    });

    it("replaces an entry's rules in place (scenario and rule: the last one), and ignores an unknown id", async () => {
      const store = await make();
      for (let n = 1; n <= 3; n++) store.addJournal(journalEntry(n));
      const rules = [
        { scenario: 'slow', index: 1, rule: 'rule 1: delay' },
        { scenario: 'blackout', index: 2, rule: 'rule 2: fail' },
      ];
      store.setJournalRules('j2', rules);
      store.setJournalRules('nope', [{ scenario: 'x', index: 1, rule: 'r' }]);
      expect(store.getJournalEntry('j2')).toMatchObject({ rules, scenario: 'blackout', rule: 'rule 2: fail' });
      expect(ids(store.queryJournal({}, ALL).items)).toEqual(['j1', 'j2', 'j3']);
      expect(ids(store.queryJournal({ scenario: 'slow' }, ALL).items)).toEqual(['j2']);
      expect(store.getJournalEntry('j1')).toMatchObject({ rules: [], scenario: null, rule: null });
      store.setJournalRules('j2', []);
      expect(store.getJournalEntry('j2')).toMatchObject({ rules: [], scenario: null, rule: null });
    });

    it('keeps at most maxJournal journal entries, dropping the oldest', async () => {
      const store = await make({ maxJournal: 3 });
      for (let n = 1; n <= 5; n++) store.addJournal(journalEntry(n));
      expect(ids(store.queryJournal({}, ALL).items)).toEqual(['j3', 'j4', 'j5']);
      expect(store.stats().journal).toBe(3);
      expect(store.getJournalEntry('j1')).toBeUndefined();
    });
  });
}
