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
import { takeTurns } from '../middleware/take-turns.js';
import type { LoopTurns } from '../../platform/loop-turns.js';

/** `turns`: the reads take turns on the event loop as the inspect reads do (middleware/take-turns.ts). */
export function analyticsRoutes({ analytics }: { analytics: AnalyticsService }, turns: LoopTurns) {
  const read = takeTurns(turns);
  return new Hono<AppEnv>()
    .get('/analytics/channels', read, (c) => {
      const query = parseWith(ChannelAnalyticsQuerySchema, c.req.query(), 'query');
      return answer(c, analytics.channels(c.get('appId'), query), 200);
    })
    .get('/analytics/users/:userId', read, (c) => answer(c, analytics.user(c.get('appId'), c.req.param('userId')), 200))
    .post('/analytics/events', async (c) => {
      const body = await readJsonBody(c, RecordEventBodySchema);
      return answer(c, analytics.recordEvent(c.get('appId'), body), 200);
    })
    .post('/analytics/rollup', read, async (c) => {
      // A pass over the app's events: it takes turns as the reads do.
      const body = await readJsonBody(c, RollupBodySchema);
      return answer(c, analytics.rollup(c.get('appId'), body), 200);
    });
}
