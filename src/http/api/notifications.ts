/**
 * POST /notifications/send: the one-call send of the spec.
 */
import { Hono } from 'hono';
import { SendNotificationBodySchema } from '../../schemas/notifications.js';
import type { AppEnv } from '../context.js';
import { readJsonBody } from '../validate.js';

export const notificationRoutes = new Hono<AppEnv>().post('/notifications/send', async (c) => {
  const body = await readJsonBody(c, SendNotificationBodySchema);
  const notification = c.get('emulator').services.notifications.send(c.get('app').appId, body, c.get('deliveryFaults'));
  return c.json(notification, 200);
});
