/**
 * Pages of the delivery log (delivery-log.ts) for a filter, from the entries an index gives
 * (delivery-index.ts): counted, when that index's key and a time range answer the filter
 * (the total read from cumulative counts, the page's first entry found by binary search),
 * else walked, each entry tested once and a run outside the page counted in one step.
 */
import type { Delivery } from '../../schemas/records.js';
import type { DeliveryFilter, ListResult, Page } from '../../domain/ports.js';
import type { KeyEntries } from '../common/counted-index.js';
import type { DeliveryMatcher } from '../../domain/record-filters.js';
import { indexesOf } from './delivery-run.js';
import {
  firstMember,
  liveMatches,
  liveMembersWith,
  memberAt,
  memberCount,
  RunEntry,
  sharedOf,
  statusAt,
  userAt,
  type Entry,
} from './delivery-entries.js';

/** What a query reads of the log. */
export interface LogView {
  /** Live entries, oldest first. */
  readonly size: number;
  entry(e: number): Entry;
  /** The entry of a sequence number an index holds (mod 2^32). */
  entryOfSeq(seq: number): number;
  /** Whether createdAt ascends along the log (a manual clock moved back breaks it). */
  readonly ordered: boolean;
  /** The oldest entry's sequence number (mod 2^32). */
  readonly headSeq: number;
  /** The members and failures the cap has cut from the oldest entry (a run it dropped part of). */
  headCut(): { members: number; failed: number };
}

/** A range of a key's entries, [low, high), with counts of what a status filter keeps. */
export interface CountedRange {
  entries: KeyEntries;
  low: number;
  high: number;
  /** Matching members before entry i of the range (low ≤ i ≤ high), counted from `low`. */
  before(i: number): number;
}

/** The first i in [low, high) whose entry's createdAt passes `after` against `bound` (times ascend). */
export function firstPassing(
  view: LogView,
  entries: KeyEntries,
  low: number,
  high: number,
  passes: (createdAt: string) => boolean,
): number {
  while (low < high) {
    const mid = (low + high) >> 1;
    if (passes(sharedOf(view.entry(view.entryOfSeq(entries.at(mid)))).createdAt)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The entries of a key within [since, until] (ISO text), by binary search: the log's times must ascend. */
export function timeRange(view: LogView, entries: KeyEntries, since?: string, until?: string): [number, number] {
  const low = since === undefined ? 0 : firstPassing(view, entries, 0, entries.count, (t) => t >= since);
  const high = until === undefined ? entries.count : firstPassing(view, entries, low, entries.count, (t) => t > until);
  return [low, Math.max(low, high)];
}

/**
 * Counts over [low, high) of a key's entries for a status filter (undefined: every member),
 * with what the cap has cut from the oldest entry left out. Null for a status no delivery has.
 */
export function countedRange(
  view: LogView,
  entries: KeyEntries,
  low: number,
  high: number,
  status: string | undefined,
): CountedRange | null {
  if (status !== undefined && status !== 'sent' && status !== 'failed') return null;
  const cut = low < high && low === 0 && entries.at(0) === view.headSeq ? view.headCut() : null;
  const cutApplies = cut !== null && cut.members > 0;
  const members = (i: number) => entries.membersBefore(i) - (cutApplies && i > 0 ? cut.members : 0);
  const failed = (i: number) => entries.failedBefore(i) - (cutApplies && i > 0 ? cut.failed : 0);
  const matching =
    status === undefined ? members : status === 'failed' ? failed : (i: number) => members(i) - failed(i);
  const base = matching(low);
  return { entries, low, high, before: (i) => matching(i) - base };
}

/** The last entry in [from, high) whose matches before it are at most `rank`: it holds the match of that rank. */
function lastWithBefore(range: CountedRange, from: number, rank: number): number {
  let low = from;
  let high = range.high - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (range.before(mid) <= rank) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The page of a counted range: the window's first entry by binary search, then only the page visited. */
export function countedPage(
  view: LogView,
  range: CountedRange,
  status: string | undefined,
  page: Page,
): ListResult<Delivery> {
  const total = range.before(range.high);
  const desc = page.order === 'desc';
  // The window in ascending ranks; for desc, the newest `offset` are skipped from the end.
  const from = desc ? Math.max(0, total - page.offset - page.limit) : page.offset;
  const to = desc ? total - page.offset : Math.min(total, page.offset + page.limit);
  const items: Delivery[] = [];
  if (from >= to) return { total, items };
  // Entry by entry from the one holding the next rank, found by binary search each time: entries
  // with no match in between (a failure among a hundred realtime sends) are skipped, not visited.
  for (let i = range.low; items.length < to - from; i++) {
    const rank = from + items.length;
    i = lastWithBefore(range, i, rank);
    const entry = view.entry(view.entryOfSeq(range.entries.at(i)));
    const skip = rank - range.before(i);
    if (status === undefined) {
      for (let m = firstMember(entry) + skip; m < memberCount(entry) && items.length < to - from; m++)
        items.push(memberAt(entry, m));
      continue;
    }
    const members = liveMembersWith(entry, status);
    for (let k = skip; k < members.length && items.length < to - from; k++) items.push(memberAt(entry, members[k]!));
  }
  if (desc) items.reverse();
  return { total, items };
}

/**
 * Every match among [low, high) of a key's entries, each entry tested once: a run outside the
 * page is counted in one step when no user is asked for, and a user is looked for in a run's
 * packed ids rather than member by member (a scan while the user index catches up).
 */
export function walkedPage(
  view: LogView,
  entries: KeyEntries,
  [low, high]: [number, number],
  filter: DeliveryFilter,
  matcher: DeliveryMatcher,
  page: Page,
): ListResult<Delivery> {
  const desc = page.order === 'desc';
  const items: Delivery[] = [];
  const end = page.offset + page.limit;
  let total = 0;
  const userId = filter.userId;
  const visit = (entry: Entry, i: number) => {
    if (!matcher.member(userId === undefined ? '' : userAt(entry, i), statusAt(entry, i))) return;
    if (total >= page.offset && total < end) items.push(memberAt(entry, i));
    total++;
  };
  const scan = (entry: Entry) => {
    if (userId !== undefined && !(entry instanceof RunEntry) && entry.userId !== userId) return;
    if (!matcher.shared(sharedOf(entry))) return;
    if (userId !== undefined && entry instanceof RunEntry) {
      const hits = indexesOf(entry.run.userIds, userId).filter((i) => i >= entry.start);
      for (const i of desc ? hits.reverse() : hits) visit(entry, i);
      return;
    }
    if (userId === undefined) {
      // Counted in one step; only the members inside the page's window are named.
      const matches = liveMatches(entry, filter.status);
      if (total + matches > page.offset && total < end) {
        const members = liveMembersWith(entry, filter.status);
        if (desc) members.reverse();
        const last = Math.min(matches, end - total);
        for (let k = Math.max(0, page.offset - total); k < last; k++) items.push(memberAt(entry, members[k]!));
      }
      total += matches;
      return;
    }
    if (desc) for (let i = memberCount(entry) - 1; i >= firstMember(entry); i--) visit(entry, i);
    else for (let i = firstMember(entry); i < memberCount(entry); i++) visit(entry, i);
  };
  const at = (i: number) => view.entry(view.entryOfSeq(entries.at(i)));
  if (desc) for (let i = high - 1; i >= low; i--) scan(at(i));
  else for (let i = low; i < high; i++) scan(at(i));
  return { total, items };
}
