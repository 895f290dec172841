/** GET /__inspect/requests.har: the journal, filtered as /__inspect/requests is, as HAR 1.2 (src/trace/har.ts). */
import { Hono } from 'hono';
import { HarQuerySchema } from '../../schemas/control.js';
import { harOf } from '../../trace/har.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { parseJournalQuery } from './inspect-requests.js';

export function inspectRequestHarRoutes({ reads: { journal } }: Pick<ControlParts, 'reads'>) {
  return new Hono<AppEnv>().get('/', async (c) => {
    const { filter, page } = parseJournalQuery(c, HarQuerySchema);
    // searchJournal as /__inspect/requests: a bodyContains search yields to other requests.
    const { items } = await journal.search(filter, page, c.req.raw.signal);
    return c.json(harOf(items, new URL(c.req.url).origin));
  });
}
