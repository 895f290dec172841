/**
 * Channel routes (docs/reference.md#beyond-the-spec, docs/fidelity.md#channels): thin routes over the channel service.
 * `/channels/availability` is registered before `/channels/:id` so it is not taken for an id.
 */
import { Hono } from 'hono';
import { CreateChannelBodySchema, ListChannelsQuerySchema, UpdateChannelBodySchema } from '../../schemas/channels.js';
import { slicePage } from '../../schemas/paging.js';
import type { ChannelService } from '../../domain/channels.js';
import type { AppEnv } from '../context.js';
import { answer, answerPage } from '../answer.js';
import { parseWith, readJsonBody } from '../validate.js';

export function channelRoutes({ channels }: { channels: ChannelService }) {
  return new Hono<AppEnv>()
    .get('/channels/availability', (c) => answer(c, channels.availability(c.get('appId')), 200))
    .get('/channels', (c) => {
      const { page } = parseWith(ListChannelsQuerySchema, c.req.query(), 'query');
      return answerPage(c, slicePage(channels.list(c.get('appId')), page));
    })
    .post('/channels', async (c) => {
      const body = await readJsonBody(c, CreateChannelBodySchema);
      return answer(c, channels.create(c.get('appId'), body), 200);
    })
    .get('/channels/:id', (c) => answer(c, channels.get(c.get('appId'), c.req.param('id')), 200))
    .put('/channels/:id', async (c) => {
      const body = await readJsonBody(c, UpdateChannelBodySchema);
      return answer(c, channels.update(c.get('appId'), c.req.param('id'), body), 200);
    });
}
