/** The notification store port: one record per send (POST …/notifications/send). */
import type { NotificationFilterSchema } from '../../schemas/control.js';
import type { NotificationRecord } from '../../schemas/records.js';
import type { FilterOf, ListResult, Page } from './lists.js';

/** What GET /__inspect/notifications filters on, as its schema parses it. */
export type NotificationFilter = FilterOf<typeof NotificationFilterSchema>;

export interface NotificationStore {
  addNotification(record: NotificationRecord): void;
  queryNotifications(filter: NotificationFilter, page: Page): ListResult<NotificationRecord>;
}
