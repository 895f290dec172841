/** /__inspect/requests: the journal of API calls, and one entry by id. */
import { Hono } from 'hono';
import { ApiError, badRequest, ERROR_CODES } from '../../domain/errors.js';
import { JournalQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';
import { appScope } from './app-scope.js';

export function inspectRequestRoutes({ store, apps }: Pick<Emulator, 'store' | 'apps'>) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      const { limit, offset, order, ...filter } = parseQuery(c, JournalQuerySchema);
      if (filter.errorCode !== undefined && !(ERROR_CODES as string[]).includes(filter.errorCode)) {
        throw badRequest(`Invalid query: errorCode must be one of ${ERROR_CODES.join(', ')}.`, {
          errorCode: `must be one of ${ERROR_CODES.join(', ')}`,
        });
      }
      return c.json(store.queryJournal(filter, { limit, offset, order }));
    })
    .get('/:id', (c) => {
      // `?appId=`: only that app's entry (a load balancer hashing on appId routes it to the app's replica).
      const appId = appScope(c, apps, { write: false });
      const id = c.req.param('id');
      const entry = store.getJournalEntry(id);
      if (entry && appId !== undefined && entry.appId !== appId) {
        throw new ApiError('ERR_NOT_FOUND', `No journal entry with id "${id}" exists for app "${appId}".`, {
          message: 'The journal entry was not found.',
        });
      }
      if (!entry) {
        throw new ApiError(
          'ERR_NOT_FOUND',
          `No journal entry with id "${id}" (it may have been dropped by the journal cap or cleared); GET ` +
            `/__inspect/requests lists them.`,
          { message: 'The journal entry was not found.' },
        );
      }
      return c.json(entry);
    });
}
