/**
 * /__inspect/deliveries: the deliveries list (strict query: an unknown parameter is a 400, an
 * empty one is absent), its long-poll (`waitFor`: 200 once that many match, 408 at the
 * timeout) and one delivery by id.
 */
import { Hono } from 'hono';
import { deliveryNotStored } from '../../domain/error-messages.js';
import { DeliveryQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { jsonBytes } from '../json-bytes.js';
import { parseQuery } from '../validate.js';

export function inspectDeliveryRoutes({ reads: { deliveries } }: Pick<ControlParts, 'reads'>) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { limit, offset, order, waitFor, timeoutMs, ...filter } = parseQuery(c, DeliveryQuerySchema);
      if (waitFor !== undefined) {
        const wait = { count: waitFor, timeoutMs, signal: c.req.raw.signal };
        const { reached, page } = await deliveries.pageAfter(filter, { limit, offset, order }, wait);
        return c.json(page, reached ? 200 : 408);
      }
      return jsonBytes(c, await deliveries.page(filter, { limit, offset, order }));
    })
    .get('/:id', async (c) => {
      const id = c.req.param('id');
      const delivery = await deliveries.get(id);
      if (!delivery) {
        throw deliveryNotStored(id);
      }
      return c.json(delivery);
    });
}
