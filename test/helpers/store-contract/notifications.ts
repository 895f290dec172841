/**
 * The NotificationStore port (src/domain/ports/notifications.ts).
 * Part of the store contract (storeContract in ../store-contract.ts), run against every store.
 */
import { describe, expect, it } from 'vitest';
import type { NotificationStore, StoreLifecycle } from '../../../src/domain/ports.js';
import { ALL, notification, type MakeStore } from './records.js';

export function notificationContract(make: MakeStore<NotificationStore & Pick<StoreLifecycle, 'stats'>>): void {
  describe('notifications', () => {
    it('keeps and filters notifications, by id too', async () => {
      const store = await make();
      store.addNotification(notification(1, { sentCount: 0, failedCount: 1 }));
      store.addNotification(notification(2, { appId: 'app-b', mode: 'batch', tag: 't', templateKey: 'k2' }));
      const q = (filter: object) => store.queryNotifications(filter, ALL).items.map((n) => n.notificationId);
      expect(q({})).toEqual(['notif_1', 'notif_2']);
      expect(q({ appId: 'app-b' })).toEqual(['notif_2']);
      expect(q({ mode: 'batch', tag: 't', templateKey: 'k2' })).toEqual(['notif_2']);
      expect(q({ notificationId: 'notif_2', appId: 'app-a' })).toEqual([]);
      expect(store.queryNotifications({ notificationId: 'notif_1' }, ALL).items[0]).toMatchObject({
        sentCount: 0,
        failedCount: 1,
      });
      expect(store.stats().notifications).toBe(2);
    });
  });
}
