/**
 * Inspect reads wait for a turn of the event loop of their own (the store's turns, shared with
 * its background slices) before they read. A burst of 100 queries read from the sockets at
 * once would otherwise be answered one after another in that one turn, each a millisecond or
 * a few of work, and a /__health (or a send) that came with them would wait for all of them:
 * taking turns, it waits for one. The API's analytics reads take them too.
 */
import type { MiddlewareHandler } from 'hono';
import type { LoopTurns } from '../../platform/loop-turns.js';
import type { AppEnv } from '../context.js';

export function takeTurns(turns: LoopTurns): MiddlewareHandler<AppEnv> {
  return async (_c, next) => {
    await turns.next();
    await next();
  };
}
