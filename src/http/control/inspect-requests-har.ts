/** GET /__inspect/requests.har: the journal, filtered as /__inspect/requests is, as HAR 1.2 (src/trace/har.ts). */
import { Hono } from 'hono';
import { badRequest, ERROR_CODES } from '../../domain/errors.js';
import { HarQuerySchema } from '../../schemas/control.js';
import { harOf } from '../../trace/har.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';

export function inspectRequestHarRoutes({ store }: Pick<Emulator, 'store'>) {
  return new Hono<AppEnv>().get('/', (c) => {
    const { limit, offset, order, ...filter } = parseQuery(c, HarQuerySchema);
    if (filter.errorCode !== undefined && !(ERROR_CODES as string[]).includes(filter.errorCode)) {
      throw badRequest(`Invalid query: errorCode must be one of ${ERROR_CODES.join(', ')}.`, {
        errorCode: `must be one of ${ERROR_CODES.join(', ')}`,
      });
    }
    const { items } = store.queryJournal(filter, { limit, offset, order });
    return c.json(harOf(items, new URL(c.req.url).origin));
  });
}
