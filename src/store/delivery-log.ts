/**
 * Deliveries in arrival order: single records and runs (delivery-run.ts) on one line of
 * entries, with a retention cap that drops the oldest first. Every filter is answered from an
 * index: users by member, every other field by entry with counts (delivery-index.ts), so a
 * total is read and a page found by binary search (delivery-query.ts, delivery-counts.ts).
 * The indexes are brought up to date on later turns after a write, in slices of a few
 * milliseconds (and by a query that finds them behind, a slice of at most 20 ms, scanning
 * meanwhile), not in the write: a send only appends, and no task holds the event loop long.
 */
import type { Delivery } from '../schemas/records.js';
import type {
  ChannelDeliveryBucket,
  DeliveryBucket,
  DeliveryFilter,
  ListResult,
  Page,
  SharedDeliveryFields,
} from '../domain/ports.js';
import { deliveryMatcher, isFiltered } from '../domain/record-filters.js';
import { packedRun, SingleDelivery, type DeliveryRun } from './delivery-run.js';
import {
  failedBefore,
  failedCount,
  firstMember,
  idPrefixOf,
  memberAt,
  memberCount,
  memberWithId,
  RunEntry,
  sharedOf,
  type Entry,
} from './delivery-entries.js';
import { DeliveryIndexes, type EntryPlan } from './delivery-index.js';
import { countedPage, countedRange, timeRange, walkedPage, type LogView } from './delivery-query.js';
import { countedBuckets, walkedBuckets, type BucketGroup } from './delivery-counts.js';
import type { KeyEntries } from './counted-index.js';
import { Deque } from './deque.js';
import { createMemberIndex } from './delivery-members.js';

export interface DeliveryLog {
  readonly length: number;
  /** How many the retention cap has dropped. */
  readonly dropped: number;
  add(d: Delivery): void;
  addRun(run: DeliveryRun): void;
  query(filter: DeliveryFilter, page: Page): ListResult<Delivery>;
  /** The live delivery with this id, searched from the newest. */
  find(id: string): Delivery | undefined;
  /** Matches per `bucketMs` bucket of createdAt and status, buckets in ascending order, empty ones left out. */
  countByTime(filter: DeliveryFilter, bucketMs: number): DeliveryBucket[];
  /** As countByTime, per channel the deliveries went through (a delivery through two counts in both). */
  countByChannelAndTime(filter: DeliveryFilter, bucketMs: number): ChannelDeliveryBucket[];
  /** Keeps only the deliveries whose shared fields `keep` accepts. */
  retain(keep: (d: SharedDeliveryFields) => boolean): void;
  toArray(): Delivery[];
  /**
   * The live deliveries as of now, built one by one as they are iterated (later writes and
   * drops do not change what it yields): a writer can go through them over many turns.
   */
  frozen(): Iterable<Delivery>;
}

/**
 * How long one query may spend bringing an index up to date. Past it the query answers by
 * scanning, and the next query goes on where this one stopped (after loading a data file of a
 * million deliveries, or clearing one app's, before the background slices have caught up).
 */
const CATCH_UP_BUDGET_MS = 20;

/** A query's budget for catching up: told how many entries it has indexed so far, says whether to stop. */
export type CatchUpBudget = () => (done: number) => boolean;

/** `ms` of real time, the clock read before the first entry and every 64th (it costs too). */
const timeBudget =
  (ms: number): CatchUpBudget =>
  () => {
    const deadline = performance.now() + ms;
    return (done) => (done & 63) === 0 && performance.now() >= deadline;
  };

/** How long one background slice of index building may hold the event loop. */
const BACKGROUND_SLICE_MS = 4;

/** Runs `task` once the current turn of the event loop and its I/O are done. */
export type Later = (task: () => void) => void;

const nextTurn: Later = (task) => void setImmediate(task);

/** The entries of a log whose entry indexes are behind: walked, never counted. */
const everyEntry = (size: number, firstSeq: number): KeyEntries => ({
  count: size,
  at: (i) => (firstSeq + i) >>> 0,
  membersBefore: () => Number.NaN,
  failedBefore: () => Number.NaN,
  plain: false,
});

/** `initial` is loaded under the cap; `initialDropped` then restores the persisted count. */
export function createDeliveryLog(
  maxDeliveries: number,
  initial: readonly Delivery[] = [],
  initialDropped = 0,
  {
    catchUpBudget = timeBudget(CATCH_UP_BUDGET_MS),
    backgroundBudget = timeBudget(BACKGROUND_SLICE_MS),
    later = nextTurn,
  }: { catchUpBudget?: CatchUpBudget; backgroundBudget?: CatchUpBudget; later?: Later } = {},
): DeliveryLog {
  let entries = new Deque<Entry>();
  /** Position of member 0 of each entry; live members hold positions [nextPosition - length, nextPosition). */
  let entryPositions = new Deque<number>();
  /** Sequence number of the oldest entry: entry e's is firstSeq + e (the indexes hold it mod 2^32). */
  let firstSeq = 0;
  let nextPosition = 0;
  let length = 0;
  let dropped = 0;
  /** Adjacent entries whose times descend: 0 means the log is in time order. */
  let disorder = 0;
  let indexes = new DeliveryIndexes();
  /** Entries at the end not yet in the entry indexes. */
  let unindexed = 0;
  const members = createMemberIndex({ entries: () => entries, positions: () => entryPositions });
  /** Runs whose user ids are still the sender's array (packSoon). */
  let unpacked: RunEntry[] = [];
  /** Whether an indexSlice is scheduled. */
  let indexing = false;

  const view: LogView = {
    get size() {
      return entries.length;
    },
    entry: (e) => entries.at(e)!,
    entryOfSeq: (seq) => (seq - (firstSeq >>> 0)) >>> 0,
    get ordered() {
      return disorder === 0;
    },
    get headSeq() {
      return firstSeq >>> 0;
    },
    headCut() {
      const head = entries.at(0);
      const start = head === undefined ? 0 : firstMember(head);
      return { members: start, failed: start === 0 ? 0 : failedBefore(head!, start) };
    },
  };

  /**
   * Packs a run's user ids into one string on a later turn, after the send has been answered.
   * Packing 10,000 ids takes ~0.2 ms (the join), a sixth of what the emulator adds to a batch
   * send; done later, it is off the answer's path and still done before the ids, kept as
   * 10,000 strings, would be copied by the next young-generation collection (bench/: batch send).
   * Until then the run reads them from the array, with the same results.
   */
  function packSoon(entry: RunEntry): void {
    unpacked.push(entry);
    if (unpacked.length === 1) later(packAll);
  }

  function packAll(): void {
    const waiting = unpacked;
    unpacked = [];
    for (const entry of waiting) entry.run = packedRun(entry.run);
  }

  /**
   * Brings every index up to date on later turns, a slice of at most BACKGROUND_SLICE_MS
   * each, so the first burst of filtered queries finds them built: built on demand, the
   * first ~30 queries by user after a million sends each spent their 20 ms building, back
   * to back (~600 ms holding the event loop).
   */
  function indexSoon(): void {
    if (indexing) return;
    indexing = true;
    later(indexSlice);
  }

  function indexSlice(): void {
    indexing = false;
    const spent = backgroundBudget();
    const done = members.catchUp(spent);
    if (!(catchUpEntries(spent) && done)) indexSoon();
  }

  function append(entry: Entry): void {
    const start = firstMember(entry);
    const size = memberCount(entry) - start;
    const last = entries.at(entries.length - 1);
    if (last !== undefined && sharedOf(entry).createdAt < sharedOf(last).createdAt) disorder++;
    entries.push(entry);
    entryPositions.push(nextPosition - start);
    nextPosition += size;
    length += size;
    members.appended();
    unindexed++;
    if (length > maxDeliveries) dropOldest(length - maxDeliveries);
    indexSoon();
  }

  /** Brings the entry indexes up to date, or as close as the budget allows; whether they are now. */
  function catchUpEntries(spent: (done: number) => boolean): boolean {
    let e = entries.length - unindexed;
    for (let done = 0; e < entries.length && !spent(done); e++, done++) {
      const entry = entries.at(e)!;
      indexes.file(sharedOf(entry), idPrefixOf(entry), firstSeq + e, memberCount(entry), failedCount(entry));
    }
    unindexed = entries.length - e;
    return unindexed === 0;
  }

  function dropOldest(excess: number): void {
    while (excess > 0 && entries.length > 0) {
      const entry = entries.at(0)!;
      const first = firstMember(entry);
      const gone = Math.min(memberCount(entry) - first, excess);
      members.dropMembers(entry, entryPositions.at(0)!, first, gone);
      length -= gone;
      dropped += gone;
      excess -= gone;
      if (first + gone < memberCount(entry)) {
        (entry as RunEntry).start += gone; // only a run can lose part of itself
        continue;
      }
      const next = entries.at(1);
      if (next !== undefined && sharedOf(next).createdAt < sharedOf(entry).createdAt) disorder--;
      // The entry is in the indexes unless it is among the entries they have yet to take in.
      if (entries.length > unindexed) indexes.unfile(sharedOf(entry), idPrefixOf(entry), firstSeq);
      else unindexed--;
      members.droppedEntry();
      entries.shift();
      entryPositions.shift();
      firstSeq++;
    }
  }

  /** The entries a filter's matches are among, or every entry while the entry indexes are behind. */
  function plan(filter: DeliveryFilter, spent: (done: number) => boolean): EntryPlan {
    if (catchUpEntries(spent)) return indexes.plan(filter, view.headSeq);
    return { entries: everyEntry(entries.length, firstSeq), exact: false };
  }

  /** The range of `entries` within the filter's times (binary search while times ascend), and whether it is exact. */
  function rangeOf(entries: KeyEntries, since?: string, until?: string): { range: [number, number]; timed: boolean } {
    if (disorder === 0) return { range: timeRange(view, entries, since, until), timed: true };
    return { range: [0, entries.count], timed: since === undefined && until === undefined };
  }

  function collect(filter: DeliveryFilter, page: Page): ListResult<Delivery> {
    const matcher = deliveryMatcher(filter);
    const spent = catchUpBudget();
    const { since, until } = matcher;
    if (filter.userId !== undefined && members.catchUp(spent)) {
      const userCount = members.count(filter.userId);
      if (userCount === 0) return { total: 0, items: [] };
      if (members.onlyUser(filter)) return members.page(filter.userId, page);
      // The user's deliveries, unless a key of the filter's other fields names fewer entries.
      if (!catchUpEntries(spent) || indexes.fewest(filter) >= userCount) return members.walk(filter, matcher, page);
    }
    const { entries: candidates, exact } = plan(filter, spent);
    const { range, timed } = rangeOf(candidates, since, until);
    if (!exact || !timed || filter.userId !== undefined)
      return walkedPage(view, candidates, range, filter, matcher, page);
    const counted = countedRange(view, candidates, range[0], range[1], filter.status);
    return counted === null ? { total: 0, items: [] } : countedPage(view, counted, filter.status, page);
  }

  /** Buckets per group: counted from a key's counts when it answers the filter, else walked. */
  function groupsOfBuckets(
    filter: DeliveryFilter,
    bucketMs: number,
    groupsOf: (shared: SharedDeliveryFields) => readonly string[],
    countedGroups: () => readonly (readonly [string, DeliveryFilter])[] | null,
  ): Map<string, BucketGroup> {
    const matcher = deliveryMatcher(filter);
    const spent = catchUpBudget();
    const perMember = filter.userId !== undefined || filter.status !== undefined;
    const keyed = perMember || disorder !== 0 || !catchUpEntries(spent) ? null : countedGroups();
    if (keyed !== null) {
      const counted = new Map<string, BucketGroup>();
      for (const [key, f] of keyed) {
        const { entries: list } = indexes.plan(f, view.headSeq);
        const group = countedBuckets(view, list, timeRange(view, list, matcher.since, matcher.until), bucketMs);
        if (group.buckets.length > 0) counted.set(key, group);
      }
      return counted;
    }
    const { entries: candidates } = plan(filter, spent);
    const { range } = rangeOf(candidates, matcher.since, matcher.until);
    return walkedBuckets(view, candidates, range, filter, matcher, bucketMs, groupsOf);
  }

  function reset(): void {
    entries = new Deque();
    entryPositions = new Deque();
    nextPosition = length = unindexed = disorder = 0;
    firstSeq = 0;
    indexes = new DeliveryIndexes();
    members.reset();
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
      if (run.userIds.length === 1) append(new SingleDelivery(run));
      else if (run.userIds.length > 1) {
        const entry = new RunEntry(run);
        append(entry);
        packSoon(entry);
      }
    },
    query(filter, page) {
      return isFiltered(filter) ? collect(filter, page) : members.unfiltered(length, nextPosition, page);
    },
    retain(keep) {
      const kept = entries.toArray().filter((entry) => keep(sharedOf(entry)));
      const droppedBefore = dropped;
      reset();
      for (const entry of kept) append(entry);
      dropped = droppedBefore;
    },
    toArray: () => members.unfiltered(length, nextPosition, { offset: 0, limit: length }).items,
    find(id) {
      // Each entry is asked where the id would sit in its range (naming every member's id to
      // compare took ~60-90 ms at a million deliveries): only the entries whose ids begin as
      // this one does, or, while the indexes are behind, every entry from the newest.
      const found = (e: number) => {
        const entry = entries.at(e)!;
        const i = memberWithId(entry, id);
        return i >= firstMember(entry) ? memberAt(entry, i) : undefined;
      };
      if (!catchUpEntries(catchUpBudget())) {
        for (let e = entries.length - 1; e >= 0; e--) {
          const delivery = found(e);
          if (delivery) return delivery;
        }
        return undefined;
      }
      for (const list of indexes.withId(id))
        for (let k = list.count - 1; k >= 0; k--) {
          const delivery = found(view.entryOfSeq(list.at(k)));
          if (delivery) return delivery;
        }
      return undefined;
    },
    countByTime(filter, bucketMs) {
      const groups = groupsOfBuckets(
        filter,
        bucketMs,
        () => [''],
        () => [['', filter]],
      );
      return groups.get('')?.buckets ?? [];
    },
    countByChannelAndTime(filter, bucketMs) {
      // Each channel's key, unless the filter names one: the deliveries through it are then
      // counted under every channel they went through, which no single key holds.
      const channels = () =>
        filter.channel === undefined
          ? indexes.channels().map((channel) => [channel, { ...filter, channel }] as const)
          : null;
      const groups = [...groupsOfBuckets(filter, bucketMs, (shared) => shared.channels, channels)];
      // Channels in the order the log first meets them.
      groups.sort(([, a], [, b]) => a.first - b.first);
      return groups.flatMap(([channel, { buckets }]) => buckets.map((b) => ({ channel, ...b })));
    },
    frozen() {
      const captured = entries.toArray();
      const starts = new Uint32Array(captured.length);
      for (let e = 0; e < captured.length; e++) starts[e] = firstMember(captured[e]!);
      return {
        *[Symbol.iterator]() {
          for (let e = 0; e < captured.length; e++) {
            const entry = captured[e]!;
            for (let i = starts[e]!; i < memberCount(entry); i++) yield memberAt(entry, i);
          }
        },
      };
    },
  };
}
