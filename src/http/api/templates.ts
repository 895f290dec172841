/**
 * Template CRUD (CONTRACT §5.5, research §2.3): thin routes over services.templates.
 * Lists are bare JSON arrays like the real docs; every success is 200 [decided].
 */
import { Hono } from 'hono';
import {
  CreateTemplateBodySchema,
  ListTemplatesQuerySchema,
  UpdateTemplateBodySchema,
} from '../../schemas/resources.js';
import { slicePage } from '../../schemas/paging.js';
import type { AppEnv } from '../context.js';
import { parseWith, readJsonBody } from '../validate.js';

export const templateRoutes = new Hono<AppEnv>()
  .get('/templates', (c) => {
    const { channelId, page } = parseWith(ListTemplatesQuerySchema, c.req.query(), 'query');
    const all = c.get('emulator').services.templates.list(c.get('app').appId, { channelId });
    const { total, items } = slicePage(all, page);
    return c.json(items, 200, { 'X-Total-Count': String(total) });
  })
  .post('/templates', async (c) => {
    const body = await readJsonBody(c, CreateTemplateBodySchema);
    return c.json(c.get('emulator').services.templates.create(c.get('app').appId, body), 200);
  })
  .get('/templates/:id', (c) =>
    c.json(c.get('emulator').services.templates.get(c.get('app').appId, c.req.param('id')), 200),
  )
  .put('/templates/:id', async (c) => {
    const body = await readJsonBody(c, UpdateTemplateBodySchema);
    return c.json(c.get('emulator').services.templates.update(c.get('app').appId, c.req.param('id'), body), 200);
  })
  .delete('/templates/:id', (c) =>
    c.json(c.get('emulator').services.templates.remove(c.get('app').appId, c.req.param('id')), 200),
  );
