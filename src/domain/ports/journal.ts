/** The journal store port: every API request and its answer, as the journal middleware records them. */
import type { JournalFilterSchema } from '../../schemas/control.js';
import type { JournalEntry } from '../../schemas/records.js';
import type { FilterOf, ListResult, Page } from './lists.js';

/**
 * What GET /__inspect/requests filters on, as its schema parses it: `scenario` matches an
 * entry when any of its applied rules belongs to it, `bodyContains` is a case-sensitive
 * substring of the request or the response body.
 */
export type JournalFilter = FilterOf<typeof JournalFilterSchema>;

export interface JournalStore {
  addJournal(entry: JournalEntry): void;
  queryJournal(filter: JournalFilter, page: Page): ListResult<JournalEntry>;
  /**
   * queryJournal as GET /__inspect/requests answers it: a `bodyContains` search, which no
   * index answers, goes through the bodies in slices of a few milliseconds that yield to the
   * event loop. It answers for the journal as it was when asked (entries added meanwhile are
   * not searched; entries the cap drops meanwhile still count). `signal` stops it early.
   */
  searchJournal(filter: JournalFilter, page: Page, signal?: AbortSignal): Promise<ListResult<JournalEntry>>;
  getJournalEntry(id: string): JournalEntry | undefined;
  /**
   * Replaces an entry's applied rules (and `scenario`/`rule`, the last of them): a campaign's
   * failDelivery rules fire after its send was journaled. An entry no longer kept is left alone.
   */
  setJournalRules(id: string, rules: JournalEntry['rules']): void;
}
