/**
 * GET /__inspect/delivery-stats as a plain function: deliveries sent and failed per time
 * bucket over a range (default: per minute over the last hour of the emulator clock), every
 * bucket present, empty ones as 0.
 */
import { badRequest } from '../domain/errors.js';
import type { Store } from '../domain/ports.js';
import { MAX_STATS_BUCKETS, type DeliveryStats, type DeliveryStatsQuery } from '../schemas/control-inspector.js';

export function deliveryStats(
  store: Pick<Store, 'countDeliveriesByTime'>,
  now: number,
  { since, until, bucketMs: givenBucket, ...filter }: DeliveryStatsQuery,
): DeliveryStats {
  const bucketMs = givenBucket ?? 60_000;
  const end = until ?? now;
  const start = since ?? end - 3_600_000 + 1;
  if (start > end) throw badRequest('"since" must not be after "until".', { since: 'must not be after until' });
  const first = start - (start % bucketMs);
  const count = Math.floor((end - first) / bucketMs) + 1;
  if (count > MAX_STATS_BUCKETS) {
    throw badRequest(`The range holds ${count} buckets; at most ${MAX_STATS_BUCKETS}: widen bucketMs or narrow it.`, {
      bucketMs: `gives ${count} buckets (max ${MAX_STATS_BUCKETS})`,
    });
  }
  const counted = new Map(
    store.countDeliveriesByTime({ ...filter, since: start, until: end }, bucketMs).map((b) => [b.start, b]),
  );
  const buckets = Array.from({ length: count }, (_, i) => {
    const at = first + i * bucketMs;
    const b = counted.get(at);
    return { start: new Date(at).toISOString(), sent: b?.sent ?? 0, failed: b?.failed ?? 0 };
  });
  const totals = buckets.reduce((t, b) => ({ sent: t.sent + b.sent, failed: t.failed + b.failed }), {
    sent: 0,
    failed: 0,
  });
  return { since: new Date(start).toISOString(), until: new Date(end).toISOString(), bucketMs, totals, buckets };
}
