/** GET /__inspect/notifications: one record per send call, filtered and paged like the other lists. */
import { Hono } from 'hono';
import { NotificationQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { jsonBytes } from '../json-bytes.js';
import { parseQuery } from '../validate.js';

export function inspectNotificationRoutes({ reads: { notifications } }: Pick<ControlParts, 'reads'>) {
  return new Hono<AppEnv>().get('/', async (c) => {
    const { limit, offset, order, ...filter } = parseQuery(c, NotificationQuerySchema);
    return jsonBytes(c, await notifications.page(filter, { limit, offset, order }));
  });
}
