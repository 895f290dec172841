/**
 * OpenAPI operations of the one-call send.
 */
import { SendNotificationBodySchema } from '../schemas/notifications.js';
import { NotificationSchema } from '../schemas/records.js';
import type { Resource } from './operation.js';

export const notificationsResource: Resource = {
  tag: { name: 'Notifications', description: 'Send a template to up to 10,000 users in one call.' },
  components: { Notification: NotificationSchema },
  operations: [
    {
      method: 'post',
      path: '/api/notifications/send',
      operationId: 'sendNotification',
      summary: 'Send a notification',
      description:
        'Renders the template (by `key` or `id`) for each target and records one delivery per target. ' +
        '`realtime` takes up to 100 targets, `batch` up to 10,000.',
      body: { schema: SendNotificationBodySchema, name: 'SendNotificationRequest' },
      responses: { 200: { description: 'The notification, sent.', schema: NotificationSchema } },
      errors: {
        400: [
          'ERR_BAD_REQUEST',
          'ERR_TEMPLATE_NOT_APPROVED',
          'ERR_INVALID_VARIABLES',
          'ERR_TARGET_LIMIT_EXCEEDED',
          'ERR_INVALID_MODE',
        ],
        404: ['ERR_NOT_FOUND'],
      },
    },
  ],
};
