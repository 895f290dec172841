/**
 * Deliveries in arrival order: single records and runs (delivery-run.ts) on one line
 * of positions, with a retention cap that drops the oldest first. The per-key indexes are
 * brought up to date on later turns after a write, in slices of a few milliseconds (and by
 * a filtered query that finds them behind, a slice of at most 20 ms, scanning meanwhile),
 * not in the write: a send only appends, no task holds the event loop long, and lookups
 * stay fast at a million deliveries.
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
import { deliveryAt, indexesOf, memberStatus, packedRun, SingleDelivery, type DeliveryRun } from './delivery-run.js';
import { Deque } from './deque.js';
import { deliveryMatcher, isFiltered } from '../domain/record-filters.js';
import { PositionIndex } from './position-index.js';

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

/** A run as the log holds it: its first `start` members were dropped by the retention cap. */
class RunEntry {
  constructor(
    /** Replaced once by the same run with its user ids packed (see packSoon). */
    public run: DeliveryRun,
    public start = 0,
  ) {}
}
/**
 * A delivery record (loaded from a data file), a run, or a run of one (a realtime send). A
 * record and a run of one name their user and status alike: most of the log reads them as one.
 */
type Entry = Delivery | RunEntry | SingleDelivery;

// Every kind of entry through one set of accessors; a single delivery is a run of one.
const sharedOf = (e: Entry): SharedDeliveryFields =>
  e instanceof RunEntry ? e.run.shared : e instanceof SingleDelivery ? e.shared : e;
/** Members before this one were dropped by the cap. */
const firstMember = (e: Entry): number => (e instanceof RunEntry ? e.start : 0);
/** Members the entry was added with, dropped ones included. */
const memberCount = (e: Entry): number => (e instanceof RunEntry ? e.run.userIds.length : 1);
const userAt = (e: Entry, i: number): string => (e instanceof RunEntry ? e.run.userIds.at(i)! : e.userId);
const statusAt = (e: Entry, i: number): string => (e instanceof RunEntry ? memberStatus(e.run, i) : e.status);
const memberAt = (e: Entry, i: number): Delivery =>
  e instanceof RunEntry ? deliveryAt(e.run, i) : e instanceof SingleDelivery ? e.toDelivery() : e;
/** The member whose delivery id is `id`, dropped ones included, or -1: a range is asked, not named id by id. */
const memberWithId = (e: Entry, id: string): number =>
  e instanceof RunEntry
    ? e.run.ids.indexOf(id)
    : e instanceof SingleDelivery
      ? e.ids.indexOf(id)
      : e.id === id
        ? 0
        : -1;
/** Live members that failed. */
function liveFailures(e: Entry): number {
  if (!(e instanceof RunEntry)) return e.status === 'failed' ? 1 : 0;
  let failed = 0;
  for (const index of e.run.failures.keys()) if (index >= e.start) failed++;
  return failed;
}

const ENTRY_KEYS = ['appId', 'notificationId', 'campaignId'] as const;
/** Whether the filter names a user and nothing else. */
const onlyUser = (filter: DeliveryFilter): boolean =>
  Object.entries(filter).every(([key, value]) => value === undefined || key === 'userId');

/** countByTime's one group: every delivery, whatever its channels. */
const ALL_CHANNELS = [''];

/**
 * How long one query may spend bringing an index up to date. Past it the query answers by
 * scanning, and the next query goes on where this one stopped: after a million sends the
 * indexes are built over several queries instead of holding one for a quarter of a second
 * or more.
 */
const CATCH_UP_BUDGET_MS = 20;

/** A query's budget for catching up: told how many entries it has indexed so far, says whether to stop. */
export type CatchUpBudget = () => (done: number) => boolean;

/** CATCH_UP_BUDGET_MS of real time, the clock read before the first entry and every 64th (it costs too). */
const timeBudget: CatchUpBudget = () => {
  const deadline = performance.now() + CATCH_UP_BUDGET_MS;
  return (done) => (done & 63) === 0 && performance.now() >= deadline;
};

/** How long one background slice of index building may hold the event loop. */
const BACKGROUND_SLICE_MS = 4;

const backgroundTimeBudget: CatchUpBudget = () => {
  const deadline = performance.now() + BACKGROUND_SLICE_MS;
  return (done) => (done & 63) === 0 && performance.now() >= deadline;
};

/** Runs `task` once the current turn of the event loop and its I/O are done. */
export type Later = (task: () => void) => void;

const nextTurn: Later = (task) => void setImmediate(task);

/** `initial` is loaded under the cap; `initialDropped` then restores the persisted count. */
export function createDeliveryLog(
  maxDeliveries: number,
  initial: readonly Delivery[] = [],
  initialDropped = 0,
  {
    catchUpBudget = timeBudget,
    backgroundBudget = backgroundTimeBudget,
    later = nextTurn,
  }: { catchUpBudget?: CatchUpBudget; backgroundBudget?: CatchUpBudget; later?: Later } = {},
): DeliveryLog {
  let entries = new Deque<Entry>();
  /** Position of member 0 of each entry; live members hold positions [nextPosition - length, nextPosition). */
  let entryPositions = new Deque<number>();
  let nextPosition = 0;
  let length = 0;
  let dropped = 0;
  /** Each user's member positions; each app's, notification's and campaign's entry positions. */
  let byUser = new PositionIndex();
  let byEntryKey = ENTRY_KEYS.map(() => new PositionIndex());
  /**
   * Entries at the end not yet in each index (the user index, then one per entry key). Each
   * index catches up only when a query filters on its field: after a million realtime sends,
   * a query by user need not first index a million notification ids.
   */
  let unindexedUsers = 0;
  let unindexedKeys = ENTRY_KEYS.map(() => 0);
  /** Runs whose user ids are still the sender's array (packSoon). */
  let unpacked: RunEntry[] = [];
  /** Whether an indexSlice is scheduled. */
  let indexing = false;

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
    let done = catchUpUsers(spent);
    for (let k = 0; k < ENTRY_KEYS.length; k++) done = catchUpKey(k, spent) && done;
    if (!done) indexSoon();
  }

  function append(entry: Entry): void {
    const start = firstMember(entry);
    const size = memberCount(entry) - start;
    entries.push(entry);
    entryPositions.push(nextPosition - start);
    nextPosition += size;
    length += size;
    unindexedUsers++;
    for (let k = 0; k < unindexedKeys.length; k++) unindexedKeys[k]!++;
    if (length > maxDeliveries) dropOldest(length - maxDeliveries);
    indexSoon();
  }

  /** Brings the user index up to date with the log, or as close as the budget allows; whether it is now. */
  function catchUpUsers(spent: (done: number) => boolean): boolean {
    let e = entries.length - unindexedUsers;
    // Counted in members: a run of 10,000 is as much work as 10,000 single deliveries.
    for (let done = 0; e < entries.length && !spent(done); e++) {
      const entry = entries.at(e)!;
      const position = entryPositions.at(e)!;
      for (let i = firstMember(entry); i < memberCount(entry); i++, done++) byUser.add(userAt(entry, i), position + i);
    }
    unindexedUsers = entries.length - e;
    return unindexedUsers === 0;
  }

  /** The same for the index of entry key `k` (app, notification, campaign). */
  function catchUpKey(k: number, spent: (done: number) => boolean): boolean {
    const key = ENTRY_KEYS[k]!;
    const index = byEntryKey[k]!;
    let e = entries.length - unindexedKeys[k]!;
    for (let done = 0; e < entries.length && !spent(done); e++, done++) {
      const value = sharedOf(entries.at(e)!)[key];
      if (value !== null) index.add(value, entryPositions.at(e)!);
    }
    unindexedKeys[k] = entries.length - e;
    return unindexedKeys[k] === 0;
  }

  function dropOldest(excess: number): void {
    while (excess > 0 && entries.length > 0) {
      const entry = entries.at(0)!;
      const position = entryPositions.at(0)!;
      const first = firstMember(entry);
      const gone = Math.min(memberCount(entry) - first, excess);
      // The entry is in an index unless it is among the entries that index has yet to take in.
      if (entries.length > unindexedUsers)
        for (let i = first; i < first + gone; i++) byUser.removeOldest(userAt(entry, i), position + i);
      length -= gone;
      dropped += gone;
      excess -= gone;
      if (first + gone < memberCount(entry)) {
        (entry as RunEntry).start += gone; // only a run can lose part of itself
        continue;
      }
      if (entries.length <= unindexedUsers) unindexedUsers--;
      const shared = sharedOf(entry);
      for (let k = 0; k < ENTRY_KEYS.length; k++) {
        if (entries.length <= unindexedKeys[k]!) unindexedKeys[k]!--;
        else if (shared[ENTRY_KEYS[k]!] !== null) byEntryKey[k]!.removeOldest(shared[ENTRY_KEYS[k]!]!, position);
      }
      entries.shift();
      entryPositions.shift();
    }
  }

  /** The entry holding `position`, at or after entry `from` (which starts at or before it): galloping, then binary. */
  function entryIndexAfter(position: number, from: number): number {
    let low = from;
    let high = from + 1;
    for (let step = 2; high < entries.length && entryPositions.at(high)! <= position; step *= 2) {
      low = high;
      high = low + step;
    }
    // The last entry starting at or before `position` is in [low, high).
    return lastStartingBy(position, low, Math.min(high, entries.length) - 1);
  }

  /** The entry holding `position`, at or before entry `from`: the mirror of entryIndexAfter. */
  function entryIndexBefore(position: number, from: number): number {
    let high = from;
    let low = from;
    for (let step = 1; low > 0 && entryPositions.at(low)! > position; step *= 2) {
      high = low - 1;
      low = Math.max(0, low - step);
    }
    return lastStartingBy(position, low, high);
  }

  /** Binary search in [low, high] for the last entry starting at or before `position` (entry `low` does). */
  function lastStartingBy(position: number, low: number, high: number): number {
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (entryPositions.at(mid)! <= position) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** The entry holding `position` (binary search: positions ascend along the log). */
  function entryIndexOf(position: number): number {
    return lastStartingBy(position, 0, entries.length - 1);
  }

  /**
   * Finds the entries of positions given in order (ascending, or descending with `desc`), as
   * an index lists them: each search starts from the previous one's entry, so a key with
   * many deliveries costs a step or two per delivery, not a binary search over the log.
   */
  function entryWalker(desc: boolean): (position: number) => number {
    let e = -1;
    return (position) =>
      (e = e < 0 ? entryIndexOf(position) : desc ? entryIndexBefore(position, e) : entryIndexAfter(position, e));
  }

  /** Counts every match and materialises only the requested window (in the page's order). */
  function collect(filter: DeliveryFilter, page: Page): ListResult<Delivery> {
    const desc = page.order === 'desc';
    const matcher = deliveryMatcher(filter);
    const items: Delivery[] = [];
    const end = page.offset + page.limit;
    let total = 0;
    // A member's user id is sliced from its run's packed ids: only when the filter names a user.
    const needsUser = filter.userId !== undefined;
    /** Live members of a matching entry that match, when no user is asked for: counted, not visited. */
    const liveMatches = (entry: Entry): number => {
      const live = memberCount(entry) - firstMember(entry);
      if (filter.status === undefined) return live;
      if (filter.status === 'failed') return liveFailures(entry);
      return filter.status === 'sent' ? live - liveFailures(entry) : 0;
    };
    const visitIfMember = (entry: Entry, i: number) => {
      if (!matcher.member(needsUser ? userAt(entry, i) : '', statusAt(entry, i))) return;
      if (total >= page.offset && total < end) items.push(memberAt(entry, i));
      total++;
    };
    const source = candidates(filter, desc);
    if (source.kind === 'members' && onlyUser(filter)) return userPage(filter.userId!, page);
    if (source.kind === 'members') {
      const firstLive = nextPosition - length;
      const entryOf = entryWalker(desc);
      for (const position of source.positions) {
        if (position < firstLive) continue; // defensive: dropped positions leave the index as they go
        const e = entryOf(position);
        const entry = entries.at(e)!;
        if (matcher.shared(sharedOf(entry))) visitIfMember(entry, position - entryPositions.at(e)!);
      }
      return { total, items };
    }
    const scan = (e: number) => {
      const entry = entries.at(e)!;
      // The user first: the cheapest test, and the one that fails most often.
      if (needsUser && !(entry instanceof RunEntry) && entry.userId !== filter.userId) return;
      if (!matcher.shared(sharedOf(entry))) return;
      // A user is looked for in the run's packed ids, not member by member (a scan while the
      // user index catches up goes through a million members).
      if (needsUser && entry instanceof RunEntry) {
        const hits = indexesOf(entry.run.userIds, filter.userId!).filter((i) => i >= entry.start);
        for (const i of desc ? hits.reverse() : hits) visitIfMember(entry, i);
        return;
      }
      // Without a user to look for, a run outside the page's window is counted in one step
      // (a long-poll counts on every send).
      if (!needsUser) {
        const matches = liveMatches(entry);
        if (total + matches <= page.offset || total >= end) {
          total += matches;
          return;
        }
      }
      if (desc) for (let i = memberCount(entry) - 1; i >= firstMember(entry); i--) visitIfMember(entry, i);
      else for (let i = firstMember(entry); i < memberCount(entry); i++) visitIfMember(entry, i);
    };
    if (source.kind === 'entries') {
      const entryOf = entryWalker(desc);
      for (const position of source.positions) scan(entryOf(position));
    } else if (desc) for (let e = entries.length - 1; e >= 0; e--) scan(e);
    else for (let e = 0; e < entries.length; e++) scan(e);
    return { total, items };
  }

  /**
   * A filter on the user alone: the index's count is the total, and only the page's window
   * is built (a load test sending to one user, and a long-poll counting its deliveries after
   * every send, would otherwise visit each of them every time).
   */
  function userPage(userId: string, page: Page): ListResult<Delivery> {
    const total = byUser.count(userId);
    const items: Delivery[] = [];
    const end = Math.min(total, page.offset + page.limit);
    for (let k = page.offset; k < end; k++) {
      const position = byUser.positionAt(userId, page.order === 'desc' ? total - 1 - k : k)!;
      const e = entryIndexOf(position);
      items.push(memberAt(entries.at(e)!, position - entryPositions.at(e)!));
    }
    return { total, items };
  }

  /** The smallest indexed list that covers the filter, or every entry. */
  function candidates(
    filter: DeliveryFilter,
    desc: boolean,
  ): { kind: 'members' | 'entries'; positions: Iterable<number> } | { kind: 'all' } {
    // A filter on no indexed field scans anyway: it need not pay for bringing the indexes up to date.
    if (filter.userId === undefined && ENTRY_KEYS.every((key) => filter[key] === undefined)) return { kind: 'all' };
    let best: { kind: 'members' | 'entries'; positions: Iterable<number> } | { kind: 'all' } = { kind: 'all' };
    let bestSize = length;
    const consider = (kind: 'members' | 'entries', index: PositionIndex, value: string | undefined) => {
      if (value === undefined || index.count(value) >= bestSize) return;
      best = { kind, positions: index.positions(value, desc) };
      bestSize = index.count(value);
    };
    // An index still behind when the budget runs out is not used this time: scanning answers.
    const spent = catchUpBudget();
    if (filter.userId !== undefined && catchUpUsers(spent)) consider('members', byUser, filter.userId);
    ENTRY_KEYS.forEach((key, k) => {
      if (filter[key] !== undefined && catchUpKey(k, spent)) consider('entries', byEntryKey[k]!, filter[key]);
    });
    return best;
  }

  /** Index arithmetic on positions: no pass over the log, in either order. */
  function unfiltered(page: Page): ListResult<Delivery> {
    const items: Delivery[] = [];
    const firstLive = nextPosition - length;
    if (page.limit <= 0 || page.offset >= length) return { total: length, items };
    if (page.order === 'desc') {
      let position = nextPosition - 1 - page.offset;
      for (let e = entryIndexOf(position); e >= 0 && items.length < page.limit; e--) {
        const entry = entries.at(e)!;
        const first = Math.max(firstMember(entry), firstLive - entryPositions.at(e)!);
        for (let i = position - entryPositions.at(e)!; i >= first && items.length < page.limit; i--, position--)
          items.push(memberAt(entry, i));
      }
      return { total: length, items };
    }
    let position = firstLive + page.offset;
    for (let e = entryIndexOf(position); e < entries.length && items.length < page.limit; e++) {
      const entry = entries.at(e)!;
      for (
        let i = position - entryPositions.at(e)!;
        i < memberCount(entry) && items.length < page.limit;
        i++, position++
      )
        items.push(memberAt(entry, i));
    }
    return { total: length, items };
  }

  /**
   * Matches counted per `bucketMs` bucket of createdAt and status, grouped by the keys
   * `groupsOf` gives a run's shared fields (each bucket list ascending, empty buckets left
   * out). A run without per-member filters is counted in one step: its size minus its failures.
   */
  function countBuckets(
    filter: DeliveryFilter,
    bucketMs: number,
    groupsOf: (shared: SharedDeliveryFields) => readonly string[],
  ): Map<string, DeliveryBucket[]> {
    const matcher = deliveryMatcher(filter);
    const perMember = filter.userId !== undefined || filter.status !== undefined;
    const groups = new Map<string, Map<number, DeliveryBucket>>();
    let lastCreatedAt = '';
    let start = 0;
    for (let e = 0; e < entries.length; e++) {
      const entry = entries.at(e)!;
      const shared = sharedOf(entry);
      if (!matcher.shared(shared)) continue;
      let sent = 0;
      let failed = 0;
      if (!(entry instanceof RunEntry)) {
        if (perMember && !matcher.member(entry.userId, entry.status)) continue;
        if (entry.status === 'failed') failed = 1;
        else sent = 1;
      } else if (perMember) {
        for (let i = firstMember(entry); i < memberCount(entry); i++) {
          const status = statusAt(entry, i);
          if (!matcher.member(userAt(entry, i), status)) continue;
          if (status === 'failed') failed++;
          else sent++;
        }
      } else {
        failed = liveFailures(entry);
        sent = memberCount(entry) - entry.start - failed;
      }
      if (sent + failed === 0) continue;
      // Records made in the same second share one timestamp string: parsed once for all of them.
      if (shared.createdAt !== lastCreatedAt) {
        lastCreatedAt = shared.createdAt;
        const time = Date.parse(lastCreatedAt);
        start = time - (((time % bucketMs) + bucketMs) % bucketMs);
      }
      const keys = groupsOf(shared);
      for (let k = 0; k < keys.length; k++) {
        const group = keys[k]!;
        if (keys.indexOf(group) < k) continue; // a channel named twice is delivered through once
        let buckets = groups.get(group);
        if (!buckets) groups.set(group, (buckets = new Map()));
        let bucket = buckets.get(start);
        if (!bucket) buckets.set(start, (bucket = { start, sent: 0, failed: 0 }));
        bucket.sent += sent;
        bucket.failed += failed;
      }
    }
    const sorted = new Map<string, DeliveryBucket[]>();
    for (const [group, buckets] of groups)
      sorted.set(
        group,
        [...buckets.values()].sort((a, b) => a.start - b.start),
      );
    return sorted;
  }

  function reset(): void {
    entries = new Deque();
    entryPositions = new Deque();
    nextPosition = length = unindexedUsers = 0;
    unindexedKeys = ENTRY_KEYS.map(() => 0);
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
      if (run.userIds.length === 1) append(new SingleDelivery(run));
      else if (run.userIds.length > 1) {
        const entry = new RunEntry(run);
        append(entry);
        packSoon(entry);
      }
    },
    query(filter, page) {
      return isFiltered(filter) ? collect(filter, page) : unfiltered(page);
    },
    retain(keep) {
      const kept = entries.toArray().filter((entry) => keep(sharedOf(entry)));
      const droppedBefore = dropped;
      reset();
      for (const entry of kept) append(entry);
      dropped = droppedBefore;
    },
    toArray: () => unfiltered({ offset: 0, limit: length }).items,
    find(id) {
      // Each run is asked where the id would sit in its range: naming every member's id to
      // compare took ~60-90 ms at a million deliveries, all of it holding the event loop.
      for (let e = entries.length - 1; e >= 0; e--) {
        const entry = entries.at(e)!;
        const i = memberWithId(entry, id);
        if (i >= firstMember(entry)) return memberAt(entry, i);
      }
      return undefined;
    },
    countByTime(filter, bucketMs) {
      return [...countBuckets(filter, bucketMs, () => ALL_CHANNELS).values()].flat();
    },
    countByChannelAndTime(filter, bucketMs) {
      const counted = countBuckets(filter, bucketMs, (shared) => shared.channels);
      return [...counted].flatMap(([channel, buckets]) => buckets.map((b) => ({ channel, ...b })));
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
