/**
 * Analytics routes (docs/reference.md#beyond-the-spec, docs/fidelity.md#analytics): thin routes
 * over the analytics service.
 */
import { Hono } from 'hono';
import { ChannelAnalyticsQuerySchema, RecordEventBodySchema } from '../../schemas/analytics.js';
import type { AnalyticsService } from '../../domain/analytics.js';
import type { AppEnv } from '../context.js';
import { answer } from '../answer.js';
import { parseWith, readJsonBody } from '../validate.js';

export function analyticsRoutes({ analytics }: { analytics: AnalyticsService }) {
  return new Hono<AppEnv>()
    .get('/analytics/channels', (c) => {
      const query = parseWith(ChannelAnalyticsQuerySchema, c.req.query(), 'query');
      return answer(c, analytics.channels(c.get('appId'), query), 200);
    })
    .get('/analytics/users/:userId', (c) => answer(c, analytics.user(c.get('appId'), c.req.param('userId')), 200))
    .post('/analytics/events', async (c) => {
      const body = await readJsonBody(c, RecordEventBodySchema);
      return answer(c, analytics.recordEvent(c.get('appId'), body), 200);
    });
}
