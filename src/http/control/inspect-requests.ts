/** /__inspect/requests: the journal of API calls, and one entry by id. */
import { Hono, type Context } from 'hono';
import { badRequest, ERROR_CODES } from '../../domain/errors.js';
import { journalEntryNotFound, journalEntryOfOtherApp } from '../../domain/error-messages.js';
import { type HarQuerySchema, JournalQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { jsonBytes } from '../json-bytes.js';
import { parseQuery } from '../validate.js';
import { appScope } from './app-scope.js';

/** The journal's filters and page from the query (the list's schema or the HAR's), `errorCode` one of the table's. */
export function parseJournalQuery(c: Context, schema: typeof JournalQuerySchema | typeof HarQuerySchema) {
  const { limit, offset, order, ...filter } = parseQuery<typeof JournalQuerySchema>(c, schema);
  if (filter.errorCode !== undefined && !(ERROR_CODES as string[]).includes(filter.errorCode)) {
    throw badRequest(`Invalid query: errorCode must be one of ${ERROR_CODES.join(', ')}.`, {
      errorCode: `must be one of ${ERROR_CODES.join(', ')}`,
    });
  }
  return { filter, page: { limit, offset, order } };
}

export function inspectRequestRoutes({ reads: { journal }, apps }: Pick<ControlParts, 'reads' | 'apps'>) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { filter, page } = parseJournalQuery(c, JournalQuerySchema);
      return jsonBytes(c, await journal.page(filter, page, c.req.raw.signal));
    })
    .get('/:id', async (c) => {
      // `?appId=`: only that app's entry (a load balancer hashing on appId routes it to the app's replica).
      const appId = appScope(c, apps, { write: false });
      const id = c.req.param('id');
      const entry = await journal.get(id);
      if (entry && appId !== undefined && entry.appId !== appId) {
        throw journalEntryOfOtherApp(id, appId);
      }
      if (!entry) {
        throw journalEntryNotFound(id);
      }
      return c.json(entry);
    });
}
