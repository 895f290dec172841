/**
 * Channel routes (CONTRACT §5.5, research §2.2): thin routes over services.channels.
 * `/channels/availability` is registered before `/channels/:id` so it is not taken for an id.
 */
import { Hono } from 'hono';
import { CreateChannelBodySchema, ListChannelsQuerySchema, UpdateChannelBodySchema } from '../../schemas/resources.js';
import { slicePage } from '../../schemas/paging.js';
import type { AppEnv } from '../context.js';
import { parseWith, readJsonBody } from '../validate.js';

export const channelRoutes = new Hono<AppEnv>()
  .get('/channels/availability', (c) =>
    c.json(c.get('emulator').services.channels.availability(c.get('app').appId), 200),
  )
  .get('/channels', (c) => {
    const { page } = parseWith(ListChannelsQuerySchema, c.req.query(), 'query');
    const { total, items } = slicePage(c.get('emulator').services.channels.list(c.get('app').appId), page);
    return c.json(items, 200, { 'X-Total-Count': String(total) });
  })
  .post('/channels', async (c) => {
    const body = await readJsonBody(c, CreateChannelBodySchema);
    return c.json(c.get('emulator').services.channels.create(c.get('app').appId, body), 200);
  })
  .get('/channels/:id', (c) =>
    c.json(c.get('emulator').services.channels.get(c.get('app').appId, c.req.param('id')), 200),
  )
  .put('/channels/:id', async (c) => {
    const body = await readJsonBody(c, UpdateChannelBodySchema);
    return c.json(c.get('emulator').services.channels.update(c.get('app').appId, c.req.param('id'), body), 200);
  });
