/**
 * POST /__reset: back to the state at start (every app), or one app's (`?appId=`). Unlike
 * DELETE /__inspect, which clears recorded traffic only, this also drops runtime templates,
 * channels, open-mode apps, runtime-loaded scenarios and counters, and restores the clock; for
 * one app, its own clock and active set go (back to the shared ones) and its counters restart.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { ClearQuerySchema } from '../../schemas/control.js';
import { parseQuery } from '../validate.js';
import { requireKnownApp } from './app-scope.js';

export function resetRoutes({ reset, apps }: Pick<ControlParts, 'reset' | 'apps'>) {
  return new Hono<AppEnv>().post('/', (c) => {
    const { appId } = parseQuery(c, ClearQuerySchema, { emptyIsError: ['appId'] });
    if (appId !== undefined) requireKnownApp(apps, appId, false);
    reset(appId);
    return c.json({ reset: true, appId: appId ?? null });
  });
}
