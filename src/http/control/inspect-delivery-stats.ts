/** GET /__inspect/delivery-stats: deliveries per time bucket and status (src/inspect/delivery-stats.ts). */
import { Hono } from 'hono';
import { DeliveryStatsQuerySchema } from '../../schemas/control-inspector.js';
import { deliveryStats } from '../../inspect/delivery-stats.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';

export function inspectDeliveryStatsRoutes({ store, clock }: Pick<Emulator, 'store' | 'clock'>) {
  return new Hono<AppEnv>().get('/', (c) =>
    c.json(deliveryStats(store, clock.now(), parseQuery(c, DeliveryStatsQuerySchema))),
  );
}
