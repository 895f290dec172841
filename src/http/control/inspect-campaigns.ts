/**
 * /__inspect/campaigns: every app's campaigns and their recipients, read-only
 * (docs/reference.md#inspect). Lists answer `{ total, items }` like the other inspect lists.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { InspectCampaignsQuerySchema, InspectRecipientsQuerySchema } from '../../schemas/control.js';
import { parseQuery } from '../validate.js';
import type { AnswerMemo } from '../answer-memo.js';
import { appScope, requireKnownApp } from './app-scope.js';

/**
 * The by-id routes take an optional `?appId=` (404 when the campaign is another app's): a load
 * balancer that hashes on appId then sends them to the app's replica.
 */
export function inspectCampaignRoutes(
  { services: { campaigns }, apps }: Pick<Emulator, 'services' | 'apps'>,
  answers: AnswerMemo,
) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      const { limit, offset, order, ...filter } = parseQuery(c, InspectCampaignsQuerySchema);
      return answers.json(c, () => campaigns.inspect.list(filter, { limit, offset, order }));
    })
    .get('/:id', (c) => {
      const appId = appScope(c, apps, { write: false });
      return answers.json(c, () => campaigns.inspect.get(c.req.param('id'), appId));
    })
    .get('/:id/recipients', (c) => {
      const { limit, offset, order, appId, ...filter } = parseQuery(c, InspectRecipientsQuerySchema);
      if (appId !== undefined) requireKnownApp(apps, appId, false);
      return answers.json(c, () =>
        campaigns.inspect.recipients(c.req.param('id'), filter, { limit, offset, order }, appId),
      );
    });
}
