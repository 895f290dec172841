/** The notification store port: one record per send (POST …/notifications/send). */
import type { NotificationRecord } from '../../schemas/records.js';
import type { ListResult, Page } from './lists.js';

export interface NotificationFilter {
  appId?: string;
  templateKey?: string;
  notificationId?: string;
  mode?: string;
  tag?: string;
  since?: number;
  until?: number;
}

export interface NotificationStore {
  addNotification(record: NotificationRecord): void;
  queryNotifications(filter: NotificationFilter, page: Page): ListResult<NotificationRecord>;
}
