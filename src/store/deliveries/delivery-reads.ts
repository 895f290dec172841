/**
 * The delivery log's reads (delivery-log.ts): which index answers a filter, and whether it
 * answers alone (counted: delivery-query.ts, delivery-counts.ts) or leaves candidates to walk.
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
import { deliveryMatcher } from '../../domain/record-filters.js';
import type { KeyEntries } from '../common/counted-index.js';
import { countedBuckets, walkedBuckets, type BucketGroup } from './delivery-counts.js';
import { firstMember, memberAt, memberWithId, sharedOf } from './delivery-entries.js';
import type { DeliveryIndexes, EntryPlan } from './delivery-index.js';
import type { createMemberIndex } from './delivery-members.js';
import { countedPage, countedRange, timeRange, walkedPage, type LogView } from './delivery-query.js';

/** A query's budget for catching up: told how many entries it has indexed so far, says whether to stop. */
export type CatchUpBudget = () => (done: number) => boolean;

export interface ReadSource {
  view: LogView;
  members: ReturnType<typeof createMemberIndex>;
  indexes(): DeliveryIndexes;
  /** Brings the entry indexes up to date, or as close as `spent` allows; whether they are now. */
  catchUpEntries(spent: (done: number) => boolean): boolean;
  catchUpBudget: CatchUpBudget;
}

/**
 * The entries of a log whose entry indexes are behind: walked, never counted (their plan is
 * not exact), nor intersected, so their counts and `plain` are never read.
 */
const everyEntry = (view: LogView): KeyEntries => ({
  count: view.size,
  at: (i) => (view.headSeq + i) >>> 0,
  // Stryker disable next-line ArrowFunction: never read (above)
  membersBefore: () => Number.NaN,
  // Stryker disable next-line ArrowFunction: never read (above)
  failedBefore: () => Number.NaN,
  // Stryker disable next-line BooleanLiteral: never read (above)
  plain: false,
});

/** The log's reads that need an index (delivery-log.ts offers them as they are, `collect` as a filtered query). */
export interface DeliveryReads {
  collect(filter: DeliveryFilter, page: Page): ListResult<Delivery>;
  /** The live delivery with this id, searched from the newest. */
  find(id: string): Delivery | undefined;
  /** Matches per `bucketMs` bucket of createdAt and status, buckets in ascending order, empty ones left out. */
  countByTime(filter: DeliveryFilter, bucketMs: number): DeliveryBucket[];
  /** As countByTime, per channel the deliveries went through (a delivery through two counts in both). */
  countByChannelAndTime(filter: DeliveryFilter, bucketMs: number): ChannelDeliveryBucket[];
}

/** The entries a filter's matches are among, or every entry while the entry indexes are behind. */
function plan(source: ReadSource, filter: DeliveryFilter, spent: (done: number) => boolean): EntryPlan {
  if (source.catchUpEntries(spent)) return source.indexes().plan(filter, source.view.headSeq);
  return { entries: everyEntry(source.view), exact: false };
}

/** The range of `entries` within the filter's times (binary search while times ascend), and whether it is exact. */
function rangeOf(
  view: LogView,
  entries: KeyEntries,
  since?: string,
  until?: string,
): { range: [number, number]; timed: boolean } {
  // Stryker disable next-line BooleanLiteral: a range said not exact is walked, each entry tested: a choice of path
  if (view.ordered) return { range: timeRange(view, entries, since, until), timed: true };
  return { range: [0, entries.count], timed: since === undefined && until === undefined };
}

/** Buckets per group: counted from a key's counts when it answers the filter, else walked. */
function groupsOfBuckets(
  source: ReadSource,
  filter: DeliveryFilter,
  bucketMs: number,
  groupsOf: (shared: SharedDeliveryFields) => readonly string[],
  countedGroups: () => readonly (readonly [string, DeliveryFilter])[] | null,
): Map<string, BucketGroup> {
  const { view, indexes } = source;
  const matcher = deliveryMatcher(filter);
  const spent = source.catchUpBudget();
  const perMember = filter.userId !== undefined || filter.status !== undefined;
  const keyed = perMember || !view.ordered || !source.catchUpEntries(spent) ? null : countedGroups();
  const plans = keyed?.map(([key, f]) => [key, indexes().plan(f, view.headSeq)] as const);
  // Counted only when every group's key answers it (none is a block of ids to test).
  if (plans !== undefined && plans.every(([, { exact }]) => exact)) {
    const counted = new Map<string, BucketGroup>();
    for (const [key, { entries: list }] of plans) {
      const group = countedBuckets(view, list, timeRange(view, list, matcher.since, matcher.until), bucketMs);
      if (group.buckets.length > 0) counted.set(key, group);
    }
    return counted;
  }
  const { entries: candidates } = plan(source, filter, spent);
  const { range } = rangeOf(view, candidates, matcher.since, matcher.until);
  return walkedBuckets(view, candidates, range, filter, matcher, bucketMs, groupsOf);
}

export function createDeliveryReads(source: ReadSource): DeliveryReads {
  const { view, members, indexes, catchUpEntries, catchUpBudget } = source;
  return {
    collect(filter, page) {
      const matcher = deliveryMatcher(filter);
      const spent = catchUpBudget();
      const { since, until } = matcher;
      if (filter.userId !== undefined && members.catchUp(spent)) {
        const userCount = members.count(filter.userId);
        if (userCount === 0) return { total: 0, items: [] };
        if (members.onlyUser(filter)) return members.page(filter.userId, page);
        // The user's deliveries, unless a key of the filter's other fields names fewer entries: a
        // choice of path, the other walk answers alike.
        // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral,EqualityOperator: a path
        if (!catchUpEntries(spent) || indexes().fewest(filter) >= userCount) return members.walk(filter, matcher, page);
      }
      const { entries: candidates, exact } = plan(source, filter, spent);
      const { range, timed } = rangeOf(view, candidates, since, until);
      if (!exact || !timed || filter.userId !== undefined)
        return walkedPage(view, candidates, range, filter, matcher, page);
      const counted = countedRange(view, candidates, range[0], range[1], filter.status);
      return counted === null ? { total: 0, items: [] } : countedPage(view, counted, filter.status, page);
    },

    countByTime(filter, bucketMs) {
      const groups = groupsOfBuckets(
        source,
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
          ? indexes()
              .channels()
              .map((channel) => [channel, { ...filter, channel }] as const)
          : null;
      const groups = [...groupsOfBuckets(source, filter, bucketMs, (shared) => shared.channels, channels)];
      // Channels in the order the log first meets them (within one delivery, in its own order).
      const rank = (channel: string, first: number) => sharedOf(view.entry(first)).channels.indexOf(channel);
      groups.sort(([x, a], [y, b]) => a.first - b.first || rank(x, a.first) - rank(y, b.first));
      return groups.flatMap(([channel, { buckets }]) => buckets.map((b) => ({ channel, ...b })));
    },

    /**
     * Each entry is asked where the id would sit in its range (naming every member's id to
     * compare took ~60-90 ms at a million deliveries): only the entries whose ids begin as
     * this one does, or, while the indexes are behind, every entry from the newest.
     */
    find(id) {
      const found = (e: number) => {
        const entry = view.entry(e);
        const i = memberWithId(entry, id);
        return i >= firstMember(entry) ? memberAt(entry, i) : undefined;
      };
      const lists = catchUpEntries(catchUpBudget()) ? indexes().withId(id) : [everyEntry(view)];
      for (const list of lists)
        for (let k = list.count - 1; k >= 0; k--) {
          const delivery = found(view.entryOfSeq(list.at(k)));
          if (delivery) return delivery;
        }
      return undefined;
    },
  };
}
