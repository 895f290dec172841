/** /__inspect/requests: the journal of API calls, and one entry by id. */
import { Hono, type Context } from 'hono';
import { badRequest, ERROR_CODES } from '../../domain/errors.js';
import { journalEntryNotFound, journalEntryOfOtherApp } from '../../domain/error-messages.js';
import { type HarQuerySchema, JournalQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';
import type { AnswerMemo } from '../answer-memo.js';
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

export function inspectRequestRoutes({ store, apps }: Pick<Emulator, 'store' | 'apps'>, answers: AnswerMemo) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      const { filter, page } = parseJournalQuery(c, JournalQuerySchema);
      return answers.json(c, () => store.searchJournal(filter, page, c.req.raw.signal));
    })
    .get('/:id', (c) => {
      // `?appId=`: only that app's entry (a load balancer hashing on appId routes it to the app's replica).
      const appId = appScope(c, apps, { write: false });
      const id = c.req.param('id');
      const entry = store.getJournalEntry(id);
      if (entry && appId !== undefined && entry.appId !== appId) {
        throw journalEntryOfOtherApp(id, appId);
      }
      if (!entry) {
        throw journalEntryNotFound(id);
      }
      return c.json(entry);
    });
}
