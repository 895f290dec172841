/**
 * POST /__reset: back to the state at start (every app), or one app's (`?appId=`). Unlike
 * DELETE /__inspect, which clears recorded traffic only, this also drops runtime templates,
 * channels, open-mode apps, runtime-loaded scenarios and counters, and restores the clock.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { ClearQuerySchema } from '../../schemas/control.js';
import { parseQuery } from '../validate.js';

export function resetRoutes({ reset }: Pick<Emulator, 'reset'>) {
  return new Hono<AppEnv>().post('/', (c) => {
    const { appId } = parseQuery(c, ClearQuerySchema, { emptyIsError: ['appId'] });
    reset(appId);
    return c.json({ reset: true, appId: appId ?? null });
  });
}
