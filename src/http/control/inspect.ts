/**
 * /__inspect: read-only views over what the emulator recorded, plus DELETE to clear.
 * Every query is strict (parseQuery): an unknown parameter is a 400, an empty one is absent.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import {
  ClearQuerySchema,
  DeliveryQuerySchema,
  JournalQuerySchema,
  NoQuerySchema,
  NotificationQuerySchema,
} from '../../schemas/control.js';
import { parseQuery } from '../validate.js';
import { waitForCount } from '../../inspect/wait-for.js';
import { ApiError, badRequest, ERROR_CODES } from '../../domain/errors.js';

export function inspectRoutes({ store, events }: Pick<Emulator, 'store' | 'events'>) {
  return new Hono<AppEnv>()
    .get('/deliveries', async (c) => {
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
      return c.json(store.queryDeliveries(filter, { limit, offset, order }));
    })
    .get('/notifications', (c) => {
      const { limit, offset, order, ...filter } = parseQuery(c, NotificationQuerySchema);
      return c.json(store.queryNotifications(filter, { limit, offset, order }));
    })
    .get('/requests', (c) => {
      const { limit, offset, order, ...filter } = parseQuery(c, JournalQuerySchema);
      if (filter.errorCode !== undefined && !(ERROR_CODES as string[]).includes(filter.errorCode)) {
        throw badRequest(`Invalid query: errorCode must be one of ${ERROR_CODES.join(', ')}.`, {
          errorCode: `must be one of ${ERROR_CODES.join(', ')}`,
        });
      }
      return c.json(store.queryJournal(filter, { limit, offset, order }));
    })
    .get('/requests/:id', (c) => {
      parseQuery(c, NoQuerySchema);
      const id = c.req.param('id');
      const entry = store.getJournalEntry(id);
      if (!entry) {
        throw new ApiError(
          'ERR_NOT_FOUND',
          `No journal entry with id "${id}" (it may have been dropped by the journal cap or cleared); GET ` +
            `/__inspect/requests lists them.`,
          { message: 'The journal entry was not found.' },
        );
      }
      return c.json(entry);
    })
    .delete('/', (c) => {
      const { appId } = parseQuery(c, ClearQuerySchema, { emptyIsError: ['appId'] });
      store.clear(appId);
      return c.json({ cleared: true, appId: appId ?? null });
    });
}
