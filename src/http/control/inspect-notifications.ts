/** GET /__inspect/notifications: one record per send call, filtered and paged like the other lists. */
import { Hono } from 'hono';
import { NotificationQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';
import type { AnswerMemo } from '../answer-memo.js';

export function inspectNotificationRoutes({ store }: Pick<Emulator, 'store'>, answers: AnswerMemo) {
  return new Hono<AppEnv>().get('/', (c) => {
    const { limit, offset, order, ...filter } = parseQuery(c, NotificationQuerySchema);
    return answers.json(c, () => store.queryNotifications(filter, { limit, offset, order }));
  });
}
