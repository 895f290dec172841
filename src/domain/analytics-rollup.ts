/**
 * POST /api/analytics/rollup (docs/api.md#analytics-rollup): the real service aggregates raw
 * events into the summaries its analytics reads answer from. The emulator's reads are computed
 * from the records whenever they are asked, so there is nothing to aggregate: the rollup only
 * counts the app's recorded events in the range and changes nothing, which makes it idempotent
 * as the real docs promise.
 */
import type { AnalyticsEvent, RollupBody } from '../schemas/analytics.js';
import type { RollupResult } from '../schemas/responses.js';
import { badRequest } from './errors.js';

/** The answer for one app's events: both ends of the range count (an event at `to` is in it). */
export function rollup(events: Iterable<AnalyticsEvent>, { from, to }: RollupBody): RollupResult {
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  if (fromMs > toMs) throw badRequest('"from" is after "to".', { from: 'must not be after "to"' });
  let eventsProcessed = 0;
  for (const event of events) {
    const at = Date.parse(event.createdAt);
    if (at >= fromMs && at <= toMs) eventsProcessed++;
  }
  return { success: true, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), eventsProcessed };
}
