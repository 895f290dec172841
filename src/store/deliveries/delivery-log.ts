/**
 * Deliveries in arrival order: single records and runs (delivery-run.ts) on one line of
 * entries, with a retention cap that drops the oldest first. Every filter is answered from an
 * index: users by member, every other field by entry with counts (delivery-index.ts), so a
 * total is read and a page found by binary search (delivery-reads.ts and the files it names).
 * The indexes are brought up to date on later turns after a write, in slices of a few
 * milliseconds (and by a query that finds them behind, a slice of at most 20 ms, scanning
 * meanwhile), not in the write: a send only appends, and no task holds the event loop long.
 * The entries the cap drops leave the indexes the same way, on later turns (delivery-index.ts).
 */
import type { Delivery } from '../../schemas/records.js';
import type { DeliveryFilter, ListResult, Page, SharedDeliveryFields } from '../../domain/ports.js';
import { isFiltered } from '../../domain/record-filters.js';
import { packedRun, SingleDelivery, SingleShares, type DeliveryRun } from './delivery-run.js';
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
import { sealSingles, SINGLE_BLOCK_SIZE } from './single-block.js';
import type { LogView } from './delivery-query.js';
import { Deque } from '../common/deque.js';
import { createMemberIndex } from './delivery-members.js';
import { createDeliveryReads, type CatchUpBudget, type DeliveryReads } from './delivery-reads.js';

export type { CatchUpBudget } from './delivery-reads.js';

export interface DeliveryLog extends Omit<DeliveryReads, 'collect'> {
  readonly length: number;
  /** How many the retention cap has dropped. */
  readonly dropped: number;
  add(d: Delivery): void;
  addRun(run: DeliveryRun): void;
  query(filter: DeliveryFilter, page: Page): ListResult<Delivery>;
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

/** The log's entries and counters, shared by the functions below. */
interface LogState {
  readonly maxDeliveries: number;
  entries: Deque<Entry>;
  /** Position of member 0 of each entry; live members hold positions [nextPosition - length, nextPosition). */
  entryPositions: Deque<number>;
  /** Sequence number of the oldest entry: entry e's is firstSeq + e (the indexes hold it mod 2^32). */
  firstSeq: number;
  nextPosition: number;
  length: number;
  dropped: number;
  /** Adjacent entries whose times descend: 0 means the log is in time order. */
  disorder: number;
  indexes: DeliveryIndexes;
  /** Entries at the end not yet in the entry indexes. */
  unindexed: number;
  readonly members: ReturnType<typeof createMemberIndex>;
  /** Runs whose user ids are still the sender's array (packSoon). */
  unpacked: RunEntry[];
  /** Whether an indexSlice is scheduled. */
  indexing: boolean;
  /** What runs of one share with the sends before them. */
  readonly shares: SingleShares;
  /** Runs of one not sealed yet (sealSoon), and each one's sequence number. */
  unsealed: SingleDelivery[];
  unsealedSeqs: number[];
  readonly singleBlockSize: number;
  readonly later: Later;
  readonly backgroundBudget: CatchUpBudget;
}

/** `initial` is loaded under the cap; `initialDropped` then restores the persisted count. */
export function createDeliveryLog(
  maxDeliveries: number,
  initial: readonly Delivery[] = [],
  initialDropped = 0,
  {
    catchUpBudget = timeBudget(CATCH_UP_BUDGET_MS),
    backgroundBudget = timeBudget(BACKGROUND_SLICE_MS),
    later = nextTurn,
    singleBlockSize = SINGLE_BLOCK_SIZE,
  }: {
    catchUpBudget?: CatchUpBudget;
    backgroundBudget?: CatchUpBudget;
    later?: Later;
    /** Runs of one sealed together (single-block.ts). */
    singleBlockSize?: number;
  } = {},
): DeliveryLog {
  const s: LogState = {
    maxDeliveries,
    entries: new Deque(),
    entryPositions: new Deque(),
    firstSeq: 0,
    nextPosition: 0,
    length: 0,
    dropped: 0,
    disorder: 0,
    indexes: new DeliveryIndexes(),
    unindexed: 0,
    members: createMemberIndex({ entries: () => s.entries, positions: () => s.entryPositions }),
    unpacked: [],
    indexing: false,
    shares: new SingleShares(),
    unsealed: [],
    unsealedSeqs: [],
    singleBlockSize,
    later,
    backgroundBudget,
  };
  const reads = createDeliveryReads({
    view: logView(s),
    members: s.members,
    indexes: () => s.indexes,
    catchUpEntries: (spent) => catchUpEntries(s, spent),
    catchUpBudget,
  });
  for (const d of initial) append(s, d);
  s.dropped = initialDropped;

  return {
    get length() {
      return s.length;
    },
    get dropped() {
      return s.dropped;
    },
    add: (d) => append(s, d),
    addRun(run) {
      if (run.userIds.length === 1) append(s, new SingleDelivery(run, s.shares));
      else if (run.userIds.length > 1) {
        const entry = new RunEntry(run);
        append(s, entry);
        packSoon(s, entry);
      }
    },
    query(filter, page) {
      return isFiltered(filter) ? reads.collect(filter, page) : s.members.unfiltered(s.length, s.nextPosition, page);
    },
    retain(keep) {
      const kept = s.entries.toArray().filter((entry) => keep(sharedOf(entry)));
      const droppedBefore = s.dropped;
      resetLog(s);
      for (const entry of kept) append(s, entry);
      s.dropped = droppedBefore;
    },
    toArray: () => s.members.unfiltered(s.length, s.nextPosition, { offset: 0, limit: s.length }).items,
    find: (id) => reads.find(id),
    countByTime: (filter, bucketMs) => reads.countByTime(filter, bucketMs),
    countByChannelAndTime: (filter, bucketMs) => reads.countByChannelAndTime(filter, bucketMs),
    frozen: () => frozenMembers(s.entries.toArray()),
  };
}

/** What the reads see of the log (delivery-query.ts). */
function logView(s: LogState): LogView {
  return {
    get size() {
      return s.entries.length;
    },
    entry: (e) => s.entries.at(e)!,
    entryOfSeq: (seq) => (seq - (s.firstSeq >>> 0)) >>> 0,
    get ordered() {
      return s.disorder === 0;
    },
    get headSeq() {
      return s.firstSeq >>> 0;
    },
    headCut() {
      const head = s.entries.at(0);
      const start = head === undefined ? 0 : firstMember(head);
      return { members: start, failed: start === 0 ? 0 : failedBefore(head!, start) };
    },
  };
}

/**
 * Packs a run's user ids into one string on a later turn, after the send has been answered.
 * Packing 10,000 ids takes ~0.2 ms (the join), a sixth of what the emulator adds to a batch
 * send; done later, it is off the answer's path and still done before the ids, kept as
 * 10,000 strings, would be copied by the next young-generation collection (bench/: batch send).
 * Until then the run reads them from the array, with the same results.
 */
function packSoon(s: LogState, entry: RunEntry): void {
  s.unpacked.push(entry);
  if (s.unpacked.length === 1) s.later(() => packAll(s));
}

function packAll(s: LogState): void {
  const waiting = s.unpacked;
  s.unpacked = [];
  for (const entry of waiting) entry.run = packedRun(entry.run);
}

/**
 * Brings every index up to date on later turns, a slice of at most BACKGROUND_SLICE_MS
 * each, so the first burst of filtered queries finds them built: built on demand, the
 * first ~30 queries by user after a million sends each spent their 20 ms building, back
 * to back (~600 ms holding the event loop).
 */
function indexSoon(s: LogState): void {
  if (s.indexing) return;
  s.indexing = true;
  s.later(() => indexSlice(s));
}

/**
 * Seals the runs of one into blocks (single-block.ts) on a later turn, once a block's worth
 * waits: a realtime send is answered before, and its entry is young garbage by the next
 * young-generation collection rather than a record the collector copies and keeps marking.
 * Fewer wait unsealed, each as it was made (a test's few sends are never sealed).
 */
function sealSoon(s: LogState, single: SingleDelivery, seq: number): void {
  s.unsealed.push(single);
  s.unsealedSeqs.push(seq);
  if (s.unsealed.length === s.singleBlockSize) s.later(() => sealWaiting(s));
}

/** Seals the oldest block's worth waiting, and asks a later turn for the next one (a turn runs a few). */
function sealWaiting(s: LogState): void {
  const singles = s.unsealed.splice(0, s.singleBlockSize);
  const seqs = s.unsealedSeqs.splice(0, s.singleBlockSize);
  if (s.unsealed.length >= s.singleBlockSize) s.later(() => sealWaiting(s));
  // Those the cap has dropped meanwhile are not sealed; the others replace their entries.
  const live = seqs.findIndex((seq) => seq >= s.firstSeq);
  if (live < 0) return;
  const sealed = sealSingles(singles.slice(live));
  for (let k = 0; k < sealed.length; k++) s.entries.set(seqs[live + k]! - s.firstSeq, sealed[k]!);
}

function indexSlice(s: LogState): void {
  s.indexing = false;
  const spent = s.backgroundBudget();
  const usersDone = s.members.catchUp(spent);
  const leftDone = s.indexes.unfileLeaving(spent);
  if (!(catchUpEntries(s, spent) && usersDone && leftDone)) indexSoon(s);
}

function append(s: LogState, entry: Entry): void {
  const start = firstMember(entry);
  const size = memberCount(entry) - start;
  const last = s.entries.at(s.entries.length - 1);
  if (last !== undefined && sharedOf(entry).createdAt < sharedOf(last).createdAt) s.disorder++;
  s.entries.push(entry);
  if (entry instanceof SingleDelivery) sealSoon(s, entry, s.firstSeq + s.entries.length - 1);
  s.entryPositions.push(s.nextPosition - start);
  s.nextPosition += size;
  s.length += size;
  s.members.appended();
  s.unindexed++;
  if (s.length > s.maxDeliveries) dropOldest(s, s.length - s.maxDeliveries);
  indexSoon(s);
}

/** Brings the entry indexes up to date, or as close as the budget allows; whether they are now. */
function catchUpEntries(s: LogState, spent: (done: number) => boolean): boolean {
  const { entries } = s;
  let e = entries.length - s.unindexed;
  for (let done = 0; e < entries.length && !spent(done); e++, done++) {
    const entry = entries.at(e)!;
    s.indexes.file(sharedOf(entry), idPrefixOf(entry), s.firstSeq + e, memberCount(entry), failedCount(entry));
  }
  s.unindexed = entries.length - e;
  return s.unindexed === 0;
}

function dropOldest(s: LogState, excess: number): void {
  const { entries } = s;
  while (excess > 0 && entries.length > 0) {
    const entry = entries.at(0)!;
    const first = firstMember(entry);
    const gone = Math.min(memberCount(entry) - first, excess);
    s.members.dropMembers(s.entryPositions.at(0)!, first, gone);
    s.length -= gone;
    s.dropped += gone;
    excess -= gone;
    if (first + gone < memberCount(entry)) {
      (entry as RunEntry).start += gone; // only a run can lose part of itself
      continue;
    }
    const next = entries.at(1);
    if (next !== undefined && sharedOf(next).createdAt < sharedOf(entry).createdAt) s.disorder--;
    // The entry is in the indexes unless it is among the entries they have yet to take in.
    if (entries.length > s.unindexed) s.indexes.leave(sharedOf(entry), idPrefixOf(entry), s.firstSeq);
    else s.unindexed--;
    s.members.droppedEntry();
    entries.shift();
    s.entryPositions.shift();
    s.firstSeq++;
  }
}

function resetLog(s: LogState): void {
  s.entries = new Deque();
  // Their entries are gone: those kept are appended again, and wait again.
  s.unsealed = [];
  s.unsealedSeqs = [];
  s.entryPositions = new Deque();
  s.nextPosition = s.length = s.unindexed = s.disorder = 0;
  s.firstSeq = 0;
  s.indexes = new DeliveryIndexes();
  s.members.reset();
}

/** The deliveries of `captured` entries, built one by one as they are iterated. */
function frozenMembers(captured: Entry[]): Iterable<Delivery> {
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
}
