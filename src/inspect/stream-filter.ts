/**
 * Which events a GET /__inspect/stream client receives: its query as one predicate. Deliveries
 * and requests are tested by the predicates the store's lists use (domain/record-filters.ts), so
 * a live list and the same list read page by page agree on what matches.
 */
import type { EmulatorEvent } from '../domain/ports.js';
import {
  DeliveryOnlyFilterSchema,
  RequestOnlyFilterSchema,
  STREAM_EVENT_TYPES,
  type StreamQuery,
} from '../schemas/control.js';
import { deliveryMatcher, journalPredicate } from '../domain/record-filters.js';

/** The record an event carries: what the stream sends as `data`. */
export function payloadOf(event: EmulatorEvent): { appId: string | null; campaignId?: string | null; userId?: string } {
  switch (event.type) {
    case 'delivery':
      return event.delivery;
    case 'campaign':
      return event.campaign;
    case 'notification':
      return event.notification;
    case 'request':
      return event.entry;
  }
}

/** The filters only deliveries carry, and those only requests carry (`status` is read by its form). */
const DELIVERY_ONLY = Object.keys(DeliveryOnlyFilterSchema.shape) as (keyof typeof DeliveryOnlyFilterSchema.shape)[];
const REQUEST_ONLY = Object.keys(RequestOnlyFilterSchema.shape) as (keyof typeof RequestOnlyFilterSchema.shape)[];

/**
 * `appId`, `campaignId` and `userId` apply to every event type (a record without the field
 * does not match; a request matches a campaignId named in its path). The delivery filters
 * keep only deliveries, the request filters only requests; `status`, `since` and `until`
 * belong to both (a word is a delivery's status, a number a request's HTTP status).
 */
export function streamFilter(query: StreamQuery): (event: EmulatorEvent) => boolean {
  const { appId, campaignId, userId, since, until, status } = query;
  const deliveryStatus = typeof status === 'string' ? status : undefined;
  const httpStatus = typeof status === 'number' ? status : undefined;
  const given = (names: readonly (keyof StreamQuery)[]) => names.some((n) => query[n] !== undefined);
  const wanted = new Set<EmulatorEvent['type']>(query.types ?? STREAM_EVENT_TYPES);
  // A filter that only one type's records carry leaves the other types out.
  const keepOnly = (...kept: EmulatorEvent['type'][]) => {
    for (const t of wanted) if (!kept.includes(t)) wanted.delete(t);
  };
  if (given(DELIVERY_ONLY) || deliveryStatus !== undefined) keepOnly('delivery');
  if (given(REQUEST_ONLY) || httpStatus !== undefined) keepOnly('request');
  if (since !== undefined || until !== undefined) keepOnly('delivery', 'request');

  const delivery = deliveryMatcher({
    ...Object.fromEntries(DELIVERY_ONLY.map((n) => [n, query[n]])),
    ...{ appId, campaignId, userId, status: deliveryStatus, since, until },
  });
  const request = journalPredicate({
    ...Object.fromEntries(REQUEST_ONLY.map((n) => [n, query[n]])),
    ...{ appId, status: httpStatus, since, until },
  });
  return (event) => {
    if (!wanted.has(event.type)) return false;
    if (event.type === 'delivery') {
      const d = event.delivery;
      return delivery.shared(d) && delivery.member(d.userId, d.status);
    }
    if (event.type === 'request') {
      if (userId !== undefined || !request(event.entry)) return false;
      return campaignId === undefined || event.entry.path.includes(campaignId);
    }
    if (appId === undefined && campaignId === undefined && userId === undefined) return true;
    const record = payloadOf(event);
    if (appId !== undefined && record.appId !== appId) return false;
    if (campaignId !== undefined) {
      const own = event.type === 'campaign' ? event.campaign.id : record.campaignId;
      if (own !== campaignId) return false;
    }
    return userId === undefined || record.userId === userId;
  };
}
