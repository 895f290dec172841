/** /__inspect/requests: the journal of API calls, and one entry by id. */
import { Hono } from 'hono';
import { badRequest, ERROR_CODES } from '../../domain/errors.js';
import { journalEntryNotFound } from '../../domain/error-messages.js';
import { JournalQuerySchema, NoQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';

export function inspectRequestRoutes({ store }: Pick<Emulator, 'store'>) {
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
      parseQuery(c, NoQuerySchema);
      const id = c.req.param('id');
      const entry = store.getJournalEntry(id);
      if (!entry) {
        throw journalEntryNotFound(id);
      }
      return c.json(entry);
    });
}
