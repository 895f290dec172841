/** GET /__inspect/delivery-stats: deliveries per time bucket and status (src/inspect/delivery-stats.ts). */
import { Hono } from 'hono';
import { DeliveryStatsQuerySchema } from '../../schemas/control-inspector.js';
import { deliveryStats } from '../../inspect/delivery-stats.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';

export function inspectDeliveryStatsRoutes({ store, clocks }: Pick<Emulator, 'store' | 'clocks'>) {
  return new Hono<AppEnv>().get('/', (c) => {
    const query = parseQuery(c, DeliveryStatsQuerySchema);
    // The default window ends at the app's own instant when the query names an app.
    const now = query.appId === undefined ? clocks.shared.now() : clocks.currentOf(query.appId).now();
    return c.json(deliveryStats(store, now, query));
  });
}
