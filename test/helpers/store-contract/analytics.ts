/**
 * The AnalyticsStore port (src/domain/ports/analytics.ts): the lookup of an event's twin.
 * Part of the store contract (storeContract in ../store-contract.ts), run against every store.
 */
import { describe, expect, it } from 'vitest';
import type { AnalyticsEvent } from '../../../src/schemas/analytics.js';
import type { AnalyticsStore, StoreLifecycle } from '../../../src/domain/ports.js';
import { at, type MakeStore } from './records.js';

export function analyticsContract(make: MakeStore<AnalyticsStore & Pick<StoreLifecycle, 'clear'>>): void {
  describe('analytics', () => {
    it('finds an analytics event by app, campaign, user and type, and not after a clear', async () => {
      const store = await make();
      const event = (id: string, appId: string, eventType: AnalyticsEvent['eventType']): AnalyticsEvent => ({
        id,
        appId,
        campaignId: 'ca',
        userId: 'user-1',
        channelType: 'push',
        eventType,
        createdAt: at(1),
      });
      for (const e of [event('e1', 'app-a', 'viewed'), event('e2', 'app-b', 'viewed'), event('e3', 'app-a', 'clicked')])
        store.addAnalyticsEvent(e);
      const find = (appId: string, eventType: AnalyticsEvent['eventType'], userId = 'user-1') =>
        store.findAnalyticsEvent(appId, { campaignId: 'ca', userId, eventType })?.id;
      expect([find('app-a', 'viewed'), find('app-b', 'viewed'), find('app-a', 'clicked')]).toEqual(['e1', 'e2', 'e3']);
      expect([find('app-b', 'clicked'), find('app-a', 'viewed', 'user-2'), find('app-a', 'delivered')]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      store.clear('app-a');
      expect([find('app-a', 'viewed'), find('app-b', 'viewed')]).toEqual([undefined, 'e2']);
      store.clear();
      expect(find('app-b', 'viewed')).toBeUndefined();
    });
  });
}
