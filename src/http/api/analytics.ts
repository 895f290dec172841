/**
 * Analytics routes (CONTRACT §5.5, research §2.6): thin routes over services.analytics.
 */
import { Hono } from 'hono';
import { ChannelAnalyticsQuerySchema, RecordEventBodySchema } from '../../schemas/analytics.js';
import type { AppEnv } from '../context.js';
import { parseWith, readJsonBody } from '../validate.js';

export const analyticsRoutes = new Hono<AppEnv>()
  .get('/analytics/channels', (c) => {
    const query = parseWith(ChannelAnalyticsQuerySchema, c.req.query(), 'query');
    return c.json(c.get('emulator').services.analytics.channels(c.get('app').appId, query), 200);
  })
  .get('/analytics/users/:userId', (c) =>
    c.json(c.get('emulator').services.analytics.user(c.get('app').appId, c.req.param('userId')), 200),
  )
  .post('/analytics/events', async (c) => {
    const body = await readJsonBody(c, RecordEventBodySchema);
    return c.json(c.get('emulator').services.analytics.recordEvent(c.get('app').appId, body), 200);
  });
