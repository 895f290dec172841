/**
 * /__inspect/campaigns: every app's campaigns and their recipients, read-only
 * (docs/reference.md#inspect). Lists answer `{ total, items }` like the other inspect lists.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { jsonBytes } from '../json-bytes.js';
import { InspectCampaignsQuerySchema, InspectRecipientsQuerySchema } from '../../schemas/control.js';
import { parseQuery } from '../validate.js';
import { appScope, requireKnownApp } from './app-scope.js';

/**
 * The by-id routes take an optional `?appId=` (404 when the campaign is another app's): a load
 * balancer that hashes on appId then sends them to the app's replica.
 */
export function inspectCampaignRoutes({ reads: { campaigns }, apps }: Pick<ControlParts, 'reads' | 'apps'>) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { limit, offset, order, ...filter } = parseQuery(c, InspectCampaignsQuerySchema);
      return jsonBytes(c, await campaigns.page(filter, { limit, offset, order }));
    })
    .get('/:id', async (c) => {
      const appId = appScope(c, apps, { write: false });
      return jsonBytes(c, await campaigns.get(c.req.param('id'), appId));
    })
    .get('/:id/recipients', async (c) => {
      const { limit, offset, order, appId, ...filter } = parseQuery(c, InspectRecipientsQuerySchema);
      if (appId !== undefined) requireKnownApp(apps, appId, false);
      return jsonBytes(c, await campaigns.recipients(c.req.param('id'), filter, { limit, offset, order }, appId));
    });
}
