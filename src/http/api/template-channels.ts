/**
 * Template-channel rows (the real service's /api/template-channels endpoints): thin routes
 * over services.templateChannels. The list is a bare JSON array with X-Total-Count.
 */
import { Hono } from 'hono';
import {
  CreateTemplateChannelBodySchema,
  ListTemplateChannelsQuerySchema,
  UpdateTemplateChannelBodySchema,
} from '../../schemas/template-channels.js';
import type { TemplateChannelService } from '../../domain/template-channels.js';
import type { AppEnv } from '../context.js';
import { answer, answerPage } from '../answer.js';
import { parseWith, readJsonBody } from '../validate.js';

export function templateChannelRoutes({ templateChannels }: { templateChannels: TemplateChannelService }) {
  return new Hono<AppEnv>()
    .get('/template-channels', (c) => {
      const { templateId, page } = parseWith(ListTemplateChannelsQuerySchema, c.req.query(), 'query');
      return answerPage(c, templateChannels.list(c.get('appId'), templateId, page));
    })
    .post('/template-channels', async (c) => {
      const body = await readJsonBody(c, CreateTemplateChannelBodySchema);
      return answer(c, templateChannels.create(c.get('appId'), body), 200);
    })
    .get('/template-channels/:templateId/:channelId', (c) =>
      answer(c, templateChannels.get(c.get('appId'), c.req.param('templateId'), c.req.param('channelId')), 200),
    )
    .put('/template-channels/:templateId/:channelId', async (c) => {
      const body = await readJsonBody(c, UpdateTemplateChannelBodySchema);
      return answer(
        c,
        templateChannels.update(c.get('appId'), c.req.param('templateId'), c.req.param('channelId'), body),
        200,
      );
    });
}
