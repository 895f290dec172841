/** Notification records in memory: the NotificationStore port over the notification log. */
import type { NotificationStore } from '../../domain/ports.js';
import { createNotificationLog } from './notification-log.js';
import type { KindOptions, RecordKind } from '../store-data.js';
import { clearByApp } from '../common/clear-by-app.js';

export function createNotificationStore(
  maxNotifications: number,
  { initial, changed, turns }: KindOptions<'notifications'>,
): RecordKind<NotificationStore, 'notifications', 'notifications' | 'droppedNotifications'> {
  let log = createNotificationLog(maxNotifications, initial?.notifications, turns);
  const port: NotificationStore = {
    addNotification(record) {
      log.add(record);
      changed();
    },
    queryNotifications: (filter, page) => log.query(filter, page),
  };
  return {
    port,
    ...clearByApp(
      () => log,
      () => (log = createNotificationLog(maxNotifications, [], turns)),
    ),
    stats: () => ({ notifications: log.length, droppedNotifications: log.dropped }),
    snapshot: () => ({ notifications: log.toArray() }),
    persistable: () => ({ notifications: log.toArray() }),
  };
}
