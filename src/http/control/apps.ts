/**
 * /__apps: the apps this emulator knows and, per app, its templates with its channels and a
 * preview rendered from generated sample values (src/reads/app-reads.ts).
 */
import { Hono } from 'hono';
import { AppTemplatesQuerySchema } from '../../schemas/control-inspector.js';
import { NoQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { parseQuery } from '../validate.js';
import { requireKnownApp } from './app-scope.js';

export function appRoutes({ apps, reads }: Pick<ControlParts, 'apps' | 'reads'>) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      parseQuery(c, NoQuerySchema);
      return c.json(await reads.apps.list());
    })
    .get('/:appId/templates', async (c) => {
      const { seed } = parseQuery(c, AppTemplatesQuerySchema);
      const appId = c.req.param('appId');
      requireKnownApp(apps, appId, false);
      return c.json(await reads.apps.templates(appId, seed));
    });
}
