/**
 * The journal in memory: the JournalStore port. Capped twice, by entries and by the body
 * text they keep in all; the oldest entries go first.
 */
import type { JournalEntry } from '../schemas/records.js';
import type { JournalStore } from '../domain/ports.js';
import { Deque } from './deque.js';
import { isFiltered, journalPredicate, paginate } from './filters.js';
import type { KindOptions, RecordKind } from './store-data.js';

export interface JournalLimits {
  maxJournal: number;
  /** Request + response body text kept in all (UTF-16 units). */
  maxJournalBodyChars: number;
}

const bodyChars = (e: JournalEntry) => (e.requestBody?.length ?? 0) + (e.responseBody?.length ?? 0);

/** An entry from an older data file gets the fields added since. */
const normaliseJournalEntry = (e: JournalEntry): JournalEntry => ({
  ...e,
  query: e.query ?? '',
  rules: e.rules ?? (e.scenario !== null && e.rule !== null ? [{ scenario: e.scenario, index: 0, rule: e.rule }] : []),
  requestHeaders: e.requestHeaders ?? {},
  requestBody: e.requestBody ?? null,
  requestBodyTruncated: e.requestBodyTruncated ?? false,
  responseBody: e.responseBody ?? null,
  responseBodyTruncated: e.responseBodyTruncated ?? false,
});

export function createJournalStore(
  { maxJournal, maxJournalBodyChars }: JournalLimits,
  { initial, changed }: KindOptions<'journal'>,
): RecordKind<JournalStore, 'journal', 'journal' | 'droppedJournal'> {
  let journal = new Deque<JournalEntry>();
  let journalBodyChars = 0;
  let dropped = 0;

  function push(entry: JournalEntry): void {
    journal.push(entry);
    journalBodyChars += bodyChars(entry);
    while (journal.length > maxJournal || (journalBodyChars > maxJournalBodyChars && journal.length > 1)) {
      journalBodyChars -= bodyChars(journal.shift()!);
      dropped++;
    }
  }

  function clear(appId: string | undefined): void {
    const kept = appId === undefined ? [] : journal.toArray().filter((e) => e.appId !== appId);
    journal = new Deque();
    journalBodyChars = 0;
    for (const e of kept) push(e);
  }

  for (const e of initial?.journal ?? []) push(normaliseJournalEntry(e));

  function find(id: string): JournalEntry | undefined {
    // Newest first: the entry a test just made is near the end.
    for (let i = journal.length - 1; i >= 0; i--) if (journal.at(i)!.id === id) return journal.at(i);
    return undefined;
  }

  const port: JournalStore = {
    addJournal(entry) {
      push(entry);
      changed();
    },
    queryJournal: (filter, page) => paginate(journal, isFiltered(filter) ? journalPredicate(filter) : null, page),
    getJournalEntry: find,
    setJournalRules(id, rules) {
      const entry = find(id);
      if (entry === undefined) return;
      const last = rules.at(-1);
      // In place: the entry keeps its position, and a reader holding it sees the rules too.
      Object.assign(entry, { rules, scenario: last?.scenario ?? null, rule: last?.rule ?? null });
      changed();
    },
  };
  return {
    port,
    clear,
    reset(appId) {
      clear(appId);
      if (appId === undefined) dropped = 0;
    },
    stats: () => ({ journal: journal.length, droppedJournal: dropped }),
    snapshot: () => ({ journal: journal.toArray() }),
    persistable: () => ({ journal: journal.toArray() }),
  };
}
