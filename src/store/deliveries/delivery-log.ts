/**
 * Deliveries in arrival order: single records and runs (delivery-run.ts) on one line of
 * entries, with a retention cap that drops the oldest first. Every filter is answered from an
 * index: users by member, every other field by entry with counts (delivery-index.ts), so a
 * total is read and a page found by binary search (delivery-reads.ts and the files it names).
 * The indexes are brought up to date on later turns after a write, in slices of a few
 * milliseconds (and by a query that finds them behind, a slice of at most 20 ms, scanning
 * meanwhile), not in the write: a send only appends, and no task holds the event loop long.
 */
import type { Delivery } from '../../schemas/records.js';
import type {
  ChannelDeliveryBucket,
  DeliveryBucket,
  DeliveryFilter,
  ListResult,
  Page,
  SharedDeliveryFields,
} from '../../domain/ports.js';
import { isFiltered } from '../../domain/record-filters.js';
import { packedRun, SingleDelivery, type DeliveryRun } from './delivery-run.js';
import {
  failedBefore,
  failedCount,
  firstMember,
  idPrefixOf,
  memberAt,
  memberCount,
  RunEntry,
  sharedOf,
  type Entry,
} from './delivery-entries.js';
import { DeliveryIndexes } from './delivery-index.js';
import type { LogView } from './delivery-query.js';
import { Deque } from '../shared/deque.js';
import { createMemberIndex } from './delivery-members.js';
import { createDeliveryReads, type CatchUpBudget } from './delivery-reads.js';

export type { CatchUpBudget } from './delivery-reads.js';

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
      members.dropMembers(entryPositions.at(0)!, first, gone);
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

  function reset(): void {
    entries = new Deque();
    entryPositions = new Deque();
    nextPosition = length = unindexed = disorder = 0;
    firstSeq = 0;
    indexes = new DeliveryIndexes();
    members.reset();
  }

  const reads = createDeliveryReads({
    view,
    members,
    indexes: () => indexes,
    catchUpEntries,
    catchUpBudget,
  });

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
      return isFiltered(filter) ? reads.collect(filter, page) : members.unfiltered(length, nextPosition, page);
    },
    retain(keep) {
      const kept = entries.toArray().filter((entry) => keep(sharedOf(entry)));
      const droppedBefore = dropped;
      reset();
      for (const entry of kept) append(entry);
      dropped = droppedBefore;
    },
    toArray: () => members.unfiltered(length, nextPosition, { offset: 0, limit: length }).items,
    find: (id) => reads.find(id),
    countByTime: (filter, bucketMs) => reads.countByTime(filter, bucketMs),
    countByChannelAndTime: (filter, bucketMs) => reads.countByChannelAndTime(filter, bucketMs),
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
