/**
 * The journal in memory: the JournalStore port. Capped twice, by entries and by the body
 * text they keep in all; the oldest entries go first. Every filter but bodyContains is read
 * from a key index (keyed-log.ts); bodyContains tests the entries the other filters leave.
 */
import type { JournalEntry } from '../../schemas/records.js';
import type { JournalFilter, JournalStore } from '../../domain/ports.js';
import { journalPredicate } from '../../domain/record-filters.js';
import { normalisePath } from '../../domain/api-path.js';
import { filterKeys } from '../common/filter-keys.js';
import { KeyedLog, type KeyedQuery, type KeyValue } from '../common/keyed-log.js';
import { pageInSlices } from '../common/sliced-search.js';
import type { KindOptions, RecordKind } from '../store-data.js';

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

/** Every scenario an entry matches a `scenario` filter by, each once. */
function scenariosOf(e: JournalEntry): KeyValue {
  if (e.rules.length === 0) return e.scenario;
  const names = new Set<string>();
  if (e.scenario !== null) names.add(e.scenario);
  for (const rule of e.rules) names.add(rule.scenario);
  return [...names];
}

const keys = filterKeys<JournalEntry>(
  (e) => e.appId,
  [
    { valueOf: (e) => e.id, withApp: false, unique: true },
    { valueOf: (e) => e.method, withApp: true },
    { valueOf: (e) => normalisePath(e.path), withApp: true },
    { valueOf: (e) => String(e.status), withApp: true },
    { valueOf: (e) => e.errorCode, withApp: true },
    { valueOf: scenariosOf, withApp: true },
  ],
);
const ID_FAMILY = 1;

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The keys and times a filter reads; bodyContains is tested record by record (no index holds text). */
function queryOf(filter: JournalFilter): KeyedQuery<JournalEntry> {
  const { keys: read, exact } = keys.keysFor(filter.appId, [
    undefined,
    filter.method?.toUpperCase(),
    filter.path === undefined ? undefined : normalisePath(filter.path),
    filter.status === undefined ? undefined : String(filter.status),
    filter.errorCode,
    filter.scenario,
  ]);
  const matches = journalPredicate(filter);
  return {
    keys: read,
    exact: exact && filter.bodyContains === undefined,
    covered: filter.bodyContains === undefined,
    matches,
    since: iso(filter.since),
    until: iso(filter.until),
  };
}

export function createJournalStore(
  { maxJournal, maxJournalBodyChars }: JournalLimits,
  { initial, changed, turns }: KindOptions<'journal'>,
): RecordKind<JournalStore, 'journal', 'journal' | 'droppedJournal'> {
  // Both caps are applied here (the log's own is off): the body-text one needs each dropped entry.
  const log = new KeyedLog<JournalEntry>({
    maxRecords: Number.POSITIVE_INFINITY,
    ...keys.forLog(),
    timeOf: (e) => e.time,
    later: turns.later,
  });
  let journalBodyChars = 0;

  function push(entry: JournalEntry): void {
    log.add(entry);
    journalBodyChars += bodyChars(entry);
    while (log.length > maxJournal || (journalBodyChars > maxJournalBodyChars && log.length > 1))
      journalBodyChars -= bodyChars(log.dropOldest()!);
  }

  function clear(appId: string | undefined): void {
    log.retain(appId === undefined ? () => false : (e) => e.appId !== appId);
    journalBodyChars = 0;
    for (const e of log) journalBodyChars += bodyChars(e);
  }

  for (const e of initial?.journal ?? []) push(normaliseJournalEntry(e));

  const port: JournalStore = {
    addJournal(entry) {
      push(entry);
      changed();
    },
    queryJournal: (filter, page) => log.query(queryOf(filter), page),
    async searchJournal(filter, page, signal) {
      if (filter.bodyContains === undefined) return log.query(queryOf(filter), page);
      const q = queryOf(filter);
      return pageInSlices(log.candidates(q, page.order === 'desc'), q.matches, page, { signal, turns });
    },
    setJournalRules(id, rules) {
      const last = rules.at(-1);
      // In place: the entry keeps its position, and a reader holding it sees the rules too.
      // Its scenarios are index keys: the log files it again under the ones it gained or lost.
      const entry = log.update(ID_FAMILY, id, (e) =>
        Object.assign(e, { rules, scenario: last?.scenario ?? null, rule: last?.rule ?? null }),
      );
      if (entry !== undefined) changed();
    },
    getJournalEntry: (id) => log.newest(ID_FAMILY, id),
  };
  return {
    port,
    clear,
    reset(appId) {
      clear(appId);
      if (appId === undefined) log.resetDropped();
    },
    stats: () => ({ journal: log.length, droppedJournal: log.dropped }),
    snapshot: () => ({ journal: log.toArray() }),
    persistable: () => ({ journal: log.toArray() }),
  };
}
