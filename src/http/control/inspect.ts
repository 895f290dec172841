/**
 * /__inspect: read-only views over what the emulator recorded, plus DELETE to clear.
 */
import { Hono } from 'hono';
import type { Events, Store } from '../../domain/ports.js';
import type { AppEnv } from '../context.js';
import {
  ClearQuerySchema,
  DeliveryQuerySchema,
  JournalQuerySchema,
  NotificationQuerySchema,
} from '../../schemas/control.js';
import { parseWith } from '../validate.js';
import { waitForCount } from '../../inspect/wait-for.js';

export function inspectRoutes({ store, events }: { store: Store; events: Events }) {
  return new Hono<AppEnv>()
    .get('/deliveries', async (c) => {
      const { limit, offset, waitFor, timeoutMs, ...filter } = parseWith(DeliveryQuerySchema, c.req.query(), 'query');
      if (waitFor !== undefined) {
        const reached = await waitForCount(
          events,
          (e) => e.type === 'delivery',
          () => store.countDeliveries(filter),
          waitFor,
          timeoutMs,
        );
        return c.json(store.queryDeliveries(filter, { limit, offset }), reached ? 200 : 408);
      }
      return c.json(store.queryDeliveries(filter, { limit, offset }));
    })
    .get('/notifications', (c) => {
      const { limit, offset, ...filter } = parseWith(NotificationQuerySchema, c.req.query(), 'query');
      return c.json(store.queryNotifications(filter, { limit, offset }));
    })
    .get('/requests', (c) => {
      const { limit, offset, ...filter } = parseWith(JournalQuerySchema, c.req.query(), 'query');
      return c.json(store.queryJournal(filter, { limit, offset }));
    })
    .delete('/', (c) => {
      const { appId } = parseWith(ClearQuerySchema, c.req.query(), 'query');
      store.clear(appId);
      return c.json({ cleared: true, appId: appId ?? null });
    });
}
