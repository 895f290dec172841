/**
 * Template-channel rows (the real service's /api/template-channels endpoints): thin routes
 * over services.templateChannels. The list is a bare JSON array with X-Total-Count.
 */
import { Hono, type Context } from 'hono';
import {
  CreateTemplateChannelBodySchema,
  ListTemplateChannelsQuerySchema,
  UpdateTemplateChannelBodySchema,
} from '../../schemas/template-channels.js';
import type { AppEnv } from '../context.js';
import { parseWith, readJsonBody } from '../validate.js';

const service = (c: Context<AppEnv>) => c.get('emulator').services.templateChannels;

export const templateChannelRoutes = new Hono<AppEnv>()
  .get('/template-channels', (c) => {
    const { templateId, page } = parseWith(ListTemplateChannelsQuerySchema, c.req.query(), 'query');
    const { total, items } = service(c).list(c.get('app').appId, templateId, page);
    return c.json(items, 200, { 'X-Total-Count': String(total) });
  })
  .post('/template-channels', async (c) => {
    const body = await readJsonBody(c, CreateTemplateChannelBodySchema);
    return c.json(service(c).create(c.get('app').appId, body), 200);
  })
  .get('/template-channels/:templateId/:channelId', (c) =>
    c.json(service(c).get(c.get('app').appId, c.req.param('templateId'), c.req.param('channelId')), 200),
  )
  .put('/template-channels/:templateId/:channelId', async (c) => {
    const body = await readJsonBody(c, UpdateTemplateChannelBodySchema);
    return c.json(
      service(c).update(c.get('app').appId, c.req.param('templateId'), c.req.param('channelId'), body),
      200,
    );
  });
