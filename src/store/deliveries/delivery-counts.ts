/**
 * Deliveries counted per time bucket and status (the inspector's delivery stats, channel
 * analytics): from a key's cumulative counts, a binary search per bucket boundary, when the
 * key answers the filter and the log's times ascend; else each candidate entry visited once,
 * a run without per-member filters counted in one step (its size less its failures).
 */
import type { DeliveryBucket, DeliveryFilter, SharedDeliveryFields } from '../../domain/ports.js';
import type { DeliveryMatcher } from '../../domain/record-filters.js';
import type { KeyEntries } from '../common/counted-index.js';
import { countedRange, firstPassing, type CountedRange, type LogView } from './delivery-query.js';
import { firstMember, liveFailures, memberCount, RunEntry, sharedOf, statusAt, userAt } from './delivery-entries.js';

/** One group's buckets (ascending, empty ones left out) and the log index of its first counted entry. */
export interface BucketGroup {
  first: number;
  buckets: DeliveryBucket[];
}

const bucketStart = (time: number, bucketMs: number) => time - (((time % bucketMs) + bucketMs) % bucketMs);

/** [low, high) of a key's entries in buckets: two reads of the counts per bucket. */
export function countedBuckets(
  view: LogView,
  entries: KeyEntries,
  [low, high]: [number, number],
  bucketMs: number,
): BucketGroup {
  const all = countedRange(view, entries, low, high, undefined)!;
  const failures = countedRange(view, entries, low, high, 'failed')!;
  const group: BucketGroup = { first: Number.POSITIVE_INFINITY, buckets: [] };
  const createdAt = (i: number) => sharedOf(view.entry(view.entryOfSeq(entries.at(i)))).createdAt;
  for (let i = low; i < high;) {
    const start = bucketStart(Date.parse(createdAt(i)), bucketMs);
    const next = new Date(start + bucketMs).toISOString();
    const j = firstPassing(view, entries, i + 1, high, (t) => t >= next);
    const members = all.before(j) - all.before(i);
    const failed = failures.before(j) - failures.before(i);
    if (members > 0) {
      if (group.buckets.length === 0) group.first = firstNonEmpty(all, i, j, view);
      group.buckets.push({ start, sent: members - failed, failed });
    }
    i = j;
  }
  return group;
}

/** The log index of the first entry in [i, j) with a live member (a run's first may have lost all to the cap). */
function firstNonEmpty(range: CountedRange, i: number, j: number, view: LogView): number {
  let k = i;
  while (k < j - 1 && range.before(k + 1) === range.before(i)) k++;
  return view.entryOfSeq(range.entries.at(k));
}

/**
 * [low, high) of a key's entries visited one by one, grouped by the keys `groupsOf` gives a
 * run's shared fields (a channel named twice counted once).
 */
export function walkedBuckets(
  view: LogView,
  entries: KeyEntries,
  [low, high]: [number, number],
  filter: DeliveryFilter,
  matcher: DeliveryMatcher,
  bucketMs: number,
  groupsOf: (shared: SharedDeliveryFields) => readonly string[],
): Map<string, BucketGroup> {
  const perMember = filter.userId !== undefined || filter.status !== undefined;
  const groups = new Map<string, { first: number; buckets: Map<number, DeliveryBucket> }>();
  // The bucket of the last entry, as text: the next one is most often in it (a realtime send's
  // time is its own string, and parsing each took most of a walk).
  let start = 0;
  let from = '';
  let to = '';
  for (let k = low; k < high; k++) {
    const e = view.entryOfSeq(entries.at(k));
    const entry = view.entry(e);
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
    if (!(shared.createdAt >= from && shared.createdAt < to)) {
      start = bucketStart(Date.parse(shared.createdAt), bucketMs);
      from = new Date(start).toISOString();
      to = new Date(start + bucketMs).toISOString();
    }
    const keys = groupsOf(shared);
    for (let g = 0; g < keys.length; g++) {
      const key = keys[g]!;
      if (keys.indexOf(key) < g) continue; // a channel named twice is delivered through once
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { first: e, buckets: new Map() }));
      let bucket = group.buckets.get(start);
      if (!bucket) group.buckets.set(start, (bucket = { start, sent: 0, failed: 0 }));
      bucket.sent += sent;
      bucket.failed += failed;
    }
  }
  const sorted = new Map<string, BucketGroup>();
  for (const [key, { first, buckets }] of groups)
    sorted.set(key, { first, buckets: [...buckets.values()].sort((a, b) => a.start - b.start) });
  return sorted;
}
