/**
 * /__inspect/campaigns: every app's campaigns and their recipients, read-only
 * (docs/reference.md#inspect). Lists answer `{ total, items }` like the other inspect lists.
 */
import { Hono } from 'hono';
import type { CampaignService } from '../../domain/campaigns.js';
import type { AppEnv } from '../context.js';
import { InspectCampaignsQuerySchema, InspectRecipientsQuerySchema } from '../../schemas/control.js';
import { parseWith } from '../validate.js';

export function inspectCampaignRoutes({ campaigns }: { campaigns: CampaignService }) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      const { limit, offset, ...filter } = parseWith(InspectCampaignsQuerySchema, c.req.query(), 'query');
      return c.json(campaigns.inspect.list(filter, { limit, offset }));
    })
    .get('/:id', (c) => c.json(campaigns.inspect.get(c.req.param('id'))))
    .get('/:id/recipients', (c) => {
      const { limit, offset, ...filter } = parseWith(InspectRecipientsQuerySchema, c.req.query(), 'query');
      return c.json(campaigns.inspect.recipients(c.req.param('id'), filter, { limit, offset }));
    });
}
