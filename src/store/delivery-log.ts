/**
 * Deliveries in arrival order: single records and runs (domain/delivery-run.ts) on one line
 * of positions, with a retention cap that drops the oldest first. The per-key indexes are
 * brought up to date when a filtered query needs them, not on every write: a send only
 * appends, and lookups stay fast at a million deliveries.
 */
import type { Delivery } from '../schemas/records.js';
import type { DeliveryFilter, ListResult, Page } from '../domain/ports.js';
import { deliveryAt, memberStatus, type DeliveryRun, type SharedDeliveryFields } from '../domain/delivery-run.js';
import { Deque } from './deque.js';
import { deliveryMatcher, type DeliveryMatcher } from './filters.js';
import { PositionIndex } from './position-index.js';

export interface DeliveryLog {
  readonly length: number;
  /** How many the retention cap has dropped. */
  readonly dropped: number;
  add(d: Delivery): void;
  addRun(run: DeliveryRun): void;
  query(filter: DeliveryFilter, page: Page): ListResult<Delivery>;
  /** Keeps only the deliveries whose shared fields `keep` accepts. */
  retain(keep: (d: SharedDeliveryFields) => boolean): void;
  toArray(): Delivery[];
}

/** A run as the log holds it: its first `start` members were dropped by the retention cap. */
class RunEntry {
  constructor(
    readonly run: DeliveryRun,
    public start = 0,
  ) {}
}
type Entry = Delivery | RunEntry;

const ENTRY_KEYS = ['appId', 'notificationId', 'campaignId'] as const;

/** `initial` is loaded under the cap; `initialDropped` then restores the persisted count. */
export function createDeliveryLog(maxDeliveries: number, initial: readonly Delivery[] = [], initialDropped = 0): DeliveryLog {
  let entries = new Deque<Entry>();
  /** Position of member 0 of each entry; live members hold positions [nextPosition - length, nextPosition). */
  let entryPositions = new Deque<number>();
  let nextPosition = 0;
  let length = 0;
  let dropped = 0;
  /** Each user's member positions; each app's, notification's and campaign's entry positions. */
  let byUser = new PositionIndex();
  let byEntryKey = ENTRY_KEYS.map(() => new PositionIndex());
  /** Entries at the end not yet in the indexes. */
  let unindexed = 0;

  function append(entry: Entry): void {
    const start = entry instanceof RunEntry ? entry.start : 0;
    const size = entry instanceof RunEntry ? entry.run.userIds.length - start : 1;
    entries.push(entry);
    entryPositions.push(nextPosition - start);
    nextPosition += size;
    length += size;
    unindexed++;
    if (length > maxDeliveries) dropOldest(length - maxDeliveries);
  }

  function indexEntry(entry: Entry, position: number): void {
    const shared = entry instanceof RunEntry ? entry.run : entry;
    for (let k = 0; k < ENTRY_KEYS.length; k++) {
      const value = shared[ENTRY_KEYS[k]!];
      if (value !== null) byEntryKey[k]!.add(value, position);
    }
    if (!(entry instanceof RunEntry)) return byUser.add(entry.userId, position);
    const { userIds } = entry.run;
    for (let i = entry.start; i < userIds.length; i++) byUser.add(userIds.at(i)!, position + i);
  }

  function catchUpIndexes(): void {
    for (let e = entries.length - unindexed; e < entries.length; e++) indexEntry(entries.at(e)!, entryPositions.at(e)!);
    unindexed = 0;
  }

  function dropOldest(excess: number): void {
    while (excess > 0 && entries.length > 0) {
      const entry = entries.at(0)!;
      const position = entryPositions.at(0)!;
      const indexed = entries.length > unindexed;
      let gone: number;
      let whole = true;
      if (entry instanceof RunEntry) {
        const { userIds } = entry.run;
        gone = Math.min(userIds.length - entry.start, excess);
        if (indexed) for (let i = entry.start; i < entry.start + gone; i++) byUser.removeOldest(userIds.at(i)!, position + i);
        entry.start += gone;
        whole = entry.start === userIds.length;
      } else {
        gone = 1;
        if (indexed) byUser.removeOldest(entry.userId, position);
      }
      length -= gone;
      dropped += gone;
      excess -= gone;
      if (!whole) continue;
      entries.shift();
      entryPositions.shift();
      if (!indexed) unindexed--;
      else {
        const shared = entry instanceof RunEntry ? entry.run : entry;
        for (let k = 0; k < ENTRY_KEYS.length; k++) {
          const value = shared[ENTRY_KEYS[k]!];
          if (value !== null) byEntryKey[k]!.removeOldest(value, position);
        }
      }
    }
  }

  /** The entry holding `position` (binary search: positions ascend along the log). */
  function entryIndexOf(position: number): number {
    let low = 0;
    let high = entries.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (entryPositions.at(mid)! <= position) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  const memberAt = (entry: Entry, i: number): Delivery => (entry instanceof RunEntry ? deliveryAt(entry.run, i) : entry);

  /** Counts every match and materialises only the requested window. */
  function collect(filter: DeliveryFilter, page: Page): ListResult<Delivery> {
    const matcher = deliveryMatcher(filter);
    const items: Delivery[] = [];
    const end = page.offset + page.limit;
    let total = 0;
    const visit = (entry: Entry, i: number) => {
      if (total >= page.offset && total < end) items.push(memberAt(entry, i));
      total++;
    };
    const source = candidates(filter);
    if (source.kind === 'members') {
      const firstLive = nextPosition - length;
      for (const position of source.positions) {
        if (position < firstLive) continue; // defensive: dropped positions leave the index as they go
        const e = entryIndexOf(position);
        const entry = entries.at(e)!;
        if (memberMatches(matcher, entry, position - entryPositions.at(e)!)) visit(entry, position - entryPositions.at(e)!);
      }
      return { total, items };
    }
    const scan = (e: number) => {
      const entry = entries.at(e)!;
      if (!matcher.shared(entry instanceof RunEntry ? entry.run : entry)) return;
      if (!(entry instanceof RunEntry)) return void (matcher.member(entry.userId, entry.status) && visit(entry, 0));
      const { run } = entry;
      for (let i = entry.start; i < run.userIds.length; i++) if (matcher.member(run.userIds.at(i)!, memberStatus(run, i))) visit(entry, i);
    };
    if (source.kind === 'entries') for (const position of source.positions) scan(entryIndexOf(position));
    else for (let e = 0; e < entries.length; e++) scan(e);
    return { total, items };
  }

  function memberMatches(matcher: DeliveryMatcher, entry: Entry, i: number): boolean {
    if (!(entry instanceof RunEntry)) return matcher.shared(entry) && matcher.member(entry.userId, entry.status);
    return matcher.shared(entry.run) && matcher.member(entry.run.userIds.at(i)!, memberStatus(entry.run, i));
  }

  /** The smallest indexed list that covers the filter, or every entry. */
  function candidates(filter: DeliveryFilter): { kind: 'members' | 'entries'; positions: Iterable<number> } | { kind: 'all' } {
    catchUpIndexes();
    let best: { kind: 'members' | 'entries'; positions: Iterable<number> } | { kind: 'all' } = { kind: 'all' };
    let bestSize = length;
    const consider = (kind: 'members' | 'entries', index: PositionIndex, value: string | undefined) => {
      if (value === undefined || index.count(value) >= bestSize) return;
      best = { kind, positions: index.positions(value) };
      bestSize = index.count(value);
    };
    consider('members', byUser, filter.userId);
    ENTRY_KEYS.forEach((key, k) => consider('entries', byEntryKey[k]!, filter[key]));
    return best;
  }

  function unfiltered(page: Page): ListResult<Delivery> {
    const items: Delivery[] = [];
    let position = nextPosition - length + page.offset;
    if (page.limit > 0 && position < nextPosition) {
      for (let e = entryIndexOf(position); e < entries.length && items.length < page.limit; e++) {
        const entry = entries.at(e)!;
        const size = entry instanceof RunEntry ? entry.run.userIds.length : 1;
        for (let i = position - entryPositions.at(e)!; i < size && items.length < page.limit; i++, position++) items.push(memberAt(entry, i));
      }
    }
    return { total: length, items };
  }

  function reset(): void {
    entries = new Deque();
    entryPositions = new Deque();
    nextPosition = length = unindexed = 0;
    byUser = new PositionIndex();
    byEntryKey = ENTRY_KEYS.map(() => new PositionIndex());
  }

  for (const d of initial) append(d);
  dropped = initialDropped;

  return {
    get length() {
      return length;
    },
    get dropped() {
      return dropped;
    },
    add: append,
    addRun(run) {
      if (run.userIds.length === 1) append(deliveryAt(run, 0));
      else if (run.userIds.length > 1) append(new RunEntry(run));
    },
    query(filter, page) {
      const filtered = Object.values(filter).some((v) => v !== undefined);
      return filtered ? collect(filter, page) : unfiltered(page);
    },
    retain(keep) {
      const kept = entries.toArray().filter((entry) => keep(entry instanceof RunEntry ? entry.run : entry));
      const droppedBefore = dropped;
      reset();
      for (const entry of kept) append(entry);
      dropped = droppedBefore;
    },
    toArray: () => unfiltered({ offset: 0, limit: length }).items,
  };
}
