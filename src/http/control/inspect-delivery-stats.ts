/** GET /__inspect/delivery-stats: deliveries per time bucket and status (src/inspect/delivery-stats.ts). */
import { Hono } from 'hono';
import { DeliveryStatsQuerySchema } from '../../schemas/control-inspector.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { jsonBytes } from '../json-bytes.js';
import { parseQuery } from '../validate.js';

export function inspectDeliveryStatsRoutes({ reads: { deliveries } }: Pick<ControlParts, 'reads'>) {
  return new Hono<AppEnv>().get('/', async (c) =>
    jsonBytes(c, await deliveries.stats(parseQuery(c, DeliveryStatsQuerySchema))),
  );
}
