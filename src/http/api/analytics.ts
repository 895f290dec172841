/**
 * Analytics routes (docs/reference.md#beyond-the-spec, docs/fidelity.md#analytics): thin routes
 * over the analytics service.
 */
import { Hono } from 'hono';
import { ChannelAnalyticsQuerySchema, RecordEventBodySchema, RollupBodySchema } from '../../schemas/analytics.js';
import type { AnalyticsService } from '../../domain/analytics.js';
import type { AppEnv } from '../context.js';
import { answer } from '../answer.js';
import { parseWith, readJsonBody } from '../validate.js';
import type { Reads } from '../../reads/reads.js';

/** Reads go through the analytics facade (src/reads/), the event's record through the service. */
export function analyticsRoutes({ analytics }: { analytics: AnalyticsService }, reads: Pick<Reads, 'analytics'>) {
  return new Hono<AppEnv>()
    .get('/analytics/channels', async (c) => {
      const query = parseWith(ChannelAnalyticsQuerySchema, c.req.query(), 'query');
      return answer(c, await reads.analytics.channels(c.get('appId'), query), 200);
    })
    .get('/analytics/users/:userId', async (c) =>
      answer(c, await reads.analytics.user(c.get('appId'), c.req.param('userId')), 200),
    )
    .post('/analytics/events', async (c) => {
      const body = await readJsonBody(c, RecordEventBodySchema);
      return answer(c, analytics.recordEvent(c.get('appId'), body), 200);
    })
    .post('/analytics/rollup', async (c) => {
      const body = await readJsonBody(c, RollupBodySchema);
      return answer(c, await reads.analytics.rollup(c.get('appId'), body), 200);
    });
}
