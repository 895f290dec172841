/**
 * The DeliveryStore port (src/domain/ports/deliveries.ts): filters, paging and the cap.
 * Part of the store contract (storeContract in ../store-contract.ts), run against every store.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryStore, StoreLifecycle } from '../../../src/domain/ports.js';
import { addDeliveries, ALL, at, delivery, ids, type MakeStore } from './records.js';

export function deliveryContract(make: MakeStore<DeliveryStore & Pick<StoreLifecycle, 'stats'>>): void {
  describe('deliveries', () => {
    it('filters deliveries by each field and keeps them oldest first', async () => {
      const store = await make();
      addDeliveries(store, [
        delivery(1),
        delivery(2, { appId: 'app-b', userId: 'u-x', templateKey: 'other', templateId: 'tpl-2', mode: 'batch' }),
        delivery(3, { campaignId: 'c1', channels: ['push'], status: 'failed', tag: 'promo' }),
        delivery(4, { channels: ['in_app', 'push'] }),
      ]);
      const q = (filter: object) => ids(store.queryDeliveries(filter, ALL).items);
      expect(q({})).toEqual(['d1', 'd2', 'd3', 'd4']);
      expect(q({ appId: 'app-b' })).toEqual(['d2']);
      expect(q({ userId: 'user-1' })).toEqual(['d1']);
      expect(q({ templateKey: 'other' })).toEqual(['d2']);
      expect(q({ templateId: 'tpl-1' })).toEqual(['d1', 'd3', 'd4']);
      expect(q({ campaignId: 'c1' })).toEqual(['d3']);
      expect(q({ notificationId: 'notif_1' })).toEqual(['d1', 'd4']);
      expect(q({ mode: 'batch' })).toEqual(['d2']);
      expect(q({ channel: 'push' })).toEqual(['d3', 'd4']);
      expect(q({ status: 'failed' })).toEqual(['d3']);
      expect(q({ tag: 'promo' })).toEqual(['d3']);
      expect(q({ since: Date.parse(at(2)), until: Date.parse(at(3)) })).toEqual(['d2', 'd3']);
      expect(q({ appId: 'app-a', channel: 'push', status: 'sent' })).toEqual(['d4']);
      expect(q({ userId: 'nobody' })).toEqual([]);
      expect(store.countDeliveries({ appId: 'app-a' })).toBe(3);
    });

    it('pages deliveries with offset and limit and reports the total of all matches', async () => {
      const store = await make();
      addDeliveries(
        store,
        Array.from({ length: 10 }, (_, i) => delivery(i)),
      );
      const page = store.queryDeliveries({}, { offset: 3, limit: 4 });
      expect(page.total).toBe(10);
      expect(ids(page.items)).toEqual(['d3', 'd4', 'd5', 'd6']);
      const filtered = store.queryDeliveries({ userId: 'user-1' }, { offset: 1, limit: 1 });
      expect(filtered).toMatchObject({ total: 3, items: [{ id: 'd5' }] });
      expect(store.queryDeliveries({}, { offset: 20, limit: 5 })).toEqual({ total: 10, items: [] });
      expect(store.queryDeliveries({}, { offset: 0, limit: 0 }).items).toEqual([]);
    });

    it('drops the oldest deliveries beyond the retention cap and counts them', async () => {
      const store = await make({ maxDeliveries: 3 });
      addDeliveries(store, [delivery(1), delivery(2)]);
      addDeliveries(store, [delivery(3), delivery(4), delivery(5)]);
      expect(ids(store.queryDeliveries({}, ALL).items)).toEqual(['d3', 'd4', 'd5']);
      expect(ids(store.queryDeliveries({ userId: 'user-1' }, ALL).items)).toEqual(['d5']);
      expect(store.stats()).toMatchObject({ deliveries: 3, droppedDeliveries: 2 });
    });
  });
}
