/**
 * DELETE /__inspect: clears the recorded traffic (deliveries, notifications, campaigns and the
 * journal), of one app when `appId` is given.
 */
import { Hono } from 'hono';
import { ClearQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { parseQuery } from '../validate.js';

export function inspectClearRoutes({ records }: Pick<ControlParts, 'records'>) {
  return new Hono<AppEnv>().delete('/', (c) => {
    const { appId } = parseQuery(c, ClearQuerySchema, { emptyIsError: ['appId'] });
    records.clear(appId);
    return c.json({ cleared: true, appId: appId ?? null });
  });
}
