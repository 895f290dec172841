/**
 * /__inspect/campaigns: every app's campaigns and their recipients, read-only
 * (docs/reference.md#inspect). Lists answer `{ total, items }` like the other inspect lists.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { InspectCampaignsQuerySchema, InspectRecipientsQuerySchema } from '../../schemas/control.js';
import { NoQuerySchema } from '../../schemas/control.js';
import { parseQuery } from '../validate.js';

export function inspectCampaignRoutes({ campaigns }: Pick<Emulator['services'], 'campaigns'>) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      const { limit, offset, order, ...filter } = parseQuery(c, InspectCampaignsQuerySchema);
      return c.json(campaigns.inspect.list(filter, { limit, offset, order }));
    })
    .get('/:id', (c) => {
      parseQuery(c, NoQuerySchema);
      return c.json(campaigns.inspect.get(c.req.param('id')));
    })
    .get('/:id/recipients', (c) => {
      const { limit, offset, order, ...filter } = parseQuery(c, InspectRecipientsQuerySchema);
      return c.json(campaigns.inspect.recipients(c.req.param('id'), filter, { limit, offset, order }));
    });
}
