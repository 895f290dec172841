/**
 * Deliveries as routes read them: pages (kept until the store changes), the long-poll on a
 * count, one by id, and the per-bucket stats of /__inspect/delivery-stats.
 */
import type { DeliveryFilter, Events, Page, Store } from '../domain/ports.js';
import type { AppClocks } from '../platform/app-clocks.js';
import { deliveryStats } from '../inspect/delivery-stats.js';
import type { DeliveryStatsQuery } from '../schemas/control-inspector.js';
import { waitForCount } from '../inspect/wait-for.js';
import { jsonBytes, type ReadRoom } from './read-room.js';

export interface DeliveryReadSources {
  store: Pick<Store, 'queryDeliveries' | 'countDeliveries' | 'getDelivery' | 'countDeliveriesByTime'>;
  events: Events;
  clocks: AppClocks;
}

/** Until `count` deliveries match the filter, at most `timeoutMs`, while the client stays. */
export interface DeliveryWait {
  count: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export function deliveryReads(room: ReadRoom, { store, events, clocks }: DeliveryReadSources) {
  return {
    page: (filter: DeliveryFilter, page: Page) =>
      room.kept('deliveries', [filter, page], () => store.queryDeliveries(filter, page)),
    /** The page once enough deliveries match (`reached`), or at the timeout. */
    async pageAfter(filter: DeliveryFilter, page: Page, { count, timeoutMs, signal }: DeliveryWait) {
      await room.turn();
      const relevant = (e: { type: string }) => e.type === 'delivery';
      const reached = await waitForCount(
        events,
        relevant,
        () => store.countDeliveries(filter),
        count,
        timeoutMs,
        signal,
      );
      return { reached, page: store.queryDeliveries(filter, page) };
    },
    async get(id: string) {
      await room.turn();
      return store.getDelivery(id);
    },
    /**
     * The default window ends at the app's own instant when the query names an app. A window
     * with both ends is the stored records' alone and is kept; an open one moves with the clock.
     */
    async stats(query: DeliveryStatsQuery) {
      const now = () => (query.appId === undefined ? clocks.shared.now() : clocks.currentOf(query.appId).now());
      if (query.since !== undefined && query.until !== undefined)
        return room.kept('delivery-stats', query, () => deliveryStats(store, now(), query));
      await room.turn();
      return jsonBytes(deliveryStats(store, now(), query));
    },
  };
}
