/**
 * /__inspect/deliveries: the deliveries list (strict query: an unknown parameter is a 400, an
 * empty one is absent), its long-poll (`waitFor`: 200 once that many match, 408 at the
 * timeout) and one delivery by id.
 */
import { Hono } from 'hono';
import { deliveryNotStored } from '../../domain/error-messages.js';
import { DeliveryQuerySchema } from '../../schemas/control.js';
import { waitForCount } from '../../inspect/wait-for.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';
import type { AnswerMemo } from '../answer-memo.js';

export function inspectDeliveryRoutes({ store, events }: Pick<Emulator, 'store' | 'events'>, answers: AnswerMemo) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { limit, offset, order, waitFor, timeoutMs, ...filter } = parseQuery(c, DeliveryQuerySchema);
      if (waitFor !== undefined) {
        const reached = await waitForCount(
          events,
          (e) => e.type === 'delivery',
          () => store.countDeliveries(filter),
          waitFor,
          timeoutMs,
          c.req.raw.signal,
        );
        return c.json(store.queryDeliveries(filter, { limit, offset, order }), reached ? 200 : 408);
      }
      return answers.json(c, () => store.queryDeliveries(filter, { limit, offset, order }));
    })
    .get('/:id', (c) => {
      const id = c.req.param('id');
      const delivery = store.getDelivery(id);
      if (!delivery) {
        throw deliveryNotStored(id);
      }
      return c.json(delivery);
    });
}
