/** Notification records in memory: the NotificationStore port over the notification log. */
import type { NotificationStore } from '../domain/ports.js';
import { createNotificationLog } from './notification-log.js';
import type { KindOptions, RecordKind } from './store-data.js';

export function createNotificationStore(
  maxNotifications: number,
  { initial, changed }: KindOptions<'notifications'>,
): RecordKind<NotificationStore, 'notifications', 'notifications' | 'droppedNotifications'> {
  let log = createNotificationLog(maxNotifications, initial?.notifications);
  const port: NotificationStore = {
    addNotification(record) {
      log.add(record);
      changed();
    },
    queryNotifications: (filter, page) => log.query(filter, page),
  };
  return {
    port,
    clear(appId) {
      log.retain(appId === undefined ? () => false : (n) => n.appId !== appId);
    },
    reset(appId) {
      // A fresh log also starts the dropped count over.
      if (appId === undefined) log = createNotificationLog(maxNotifications);
      else log.retain((n) => n.appId !== appId);
    },
    stats: () => ({ notifications: log.length, droppedNotifications: log.dropped }),
    snapshot: () => ({ notifications: log.toArray() }),
    persistable: () => ({ notifications: log.toArray() }),
  };
}
