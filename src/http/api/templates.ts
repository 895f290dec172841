/**
 * Template CRUD (docs/reference.md#beyond-the-spec, docs/fidelity.md#templates-api): thin routes
 * over the template service.
 * Lists are bare JSON arrays like the real docs; every success is 200 [decided].
 */
import { Hono } from 'hono';
import {
  CreateTemplateBodySchema,
  ListTemplatesQuerySchema,
  UpdateTemplateBodySchema,
} from '../../schemas/templates.js';
import { slicePage } from '../../schemas/paging.js';
import type { TemplateService } from '../../domain/templates.js';
import type { AppEnv } from '../context.js';
import { answer, answerPage } from '../answer.js';
import { parseWith, readJsonBody } from '../validate.js';

export function templateRoutes({ templates }: { templates: TemplateService }) {
  return new Hono<AppEnv>()
    .get('/templates', (c) => {
      const { channelId, page } = parseWith(ListTemplatesQuerySchema, c.req.query(), 'query');
      return answerPage(c, slicePage(templates.list(c.get('appId'), { channelId }), page));
    })
    .post('/templates', async (c) => {
      const body = await readJsonBody(c, CreateTemplateBodySchema);
      return answer(c, templates.create(c.get('appId'), body), 200);
    })
    .get('/templates/:id', (c) => answer(c, templates.get(c.get('appId'), c.req.param('id')), 200))
    .put('/templates/:id', async (c) => {
      const body = await readJsonBody(c, UpdateTemplateBodySchema);
      return answer(c, templates.update(c.get('appId'), c.req.param('id'), body), 200);
    })
    .delete('/templates/:id', (c) => answer(c, templates.remove(c.get('appId'), c.req.param('id')), 200));
}
