/**
 * POST /notifications/send: the one-call send of the spec.
 */
import { Hono } from 'hono';
import { SendNotificationBodySchema } from '../../schemas/notifications.js';
import type { NotificationService } from '../../domain/notifications.js';
import type { AppEnv } from '../context.js';
import { readJsonBody } from '../validate.js';

export function notificationRoutes({ notifications }: { notifications: NotificationService }) {
  return new Hono<AppEnv>().post('/notifications/send', async (c) => {
    const body = await readJsonBody(c, SendNotificationBodySchema);
    return c.json(notifications.send(c.get('appId'), body, c.get('scenarioScope').deliveryFaults), 200);
  });
}
