/** GET /__inspect/delivery-stats: deliveries per time bucket and status (src/inspect/delivery-stats.ts). */
import { Hono } from 'hono';
import { DeliveryStatsQuerySchema } from '../../schemas/control-inspector.js';
import { deliveryStats } from '../../inspect/delivery-stats.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';
import type { AnswerMemo } from '../answer-memo.js';

export function inspectDeliveryStatsRoutes({ store, clocks }: Pick<Emulator, 'store' | 'clocks'>, answers: AnswerMemo) {
  return new Hono<AppEnv>().get('/', (c) => {
    const query = parseQuery(c, DeliveryStatsQuerySchema);
    // The default window ends at the app's own instant when the query names an app.
    const now = query.appId === undefined ? clocks.shared.now() : clocks.currentOf(query.appId).now();
    // A window with both ends is the stored records' alone; an open one moves with the clock.
    if (query.since !== undefined && query.until !== undefined)
      return answers.json(c, () => deliveryStats(store, now, query));
    return c.json(deliveryStats(store, now, query));
  });
}
