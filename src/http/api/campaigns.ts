/**
 * Campaign routes of the emulated API (docs/reference.md#campaigns), including the multipart CSV
 * upload (streamed by csv-upload.ts). Lists answer bare JSON arrays like the real docs, with the
 * total in X-Total-Count.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import {
  AddRecipientsBodySchema,
  CreateCampaignBodySchema,
  ListCampaignsQuerySchema,
  ListRecipientsQuerySchema,
  SendCampaignBodySchema,
  UpdateCampaignBodySchema,
} from '../../schemas/campaigns.js';
import type { CampaignService } from '../../domain/campaigns.js';
import type { AppEnv } from '../context.js';
import { answer, answerPage } from '../answer.js';
import { uploadCsv } from '../csv-upload.js';
import { parseWith, readJsonBody } from '../validate.js';

/** The send body may be `{}` or absent altogether (both mean "send now"). */
async function readOptionalJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  return text.trim() === '' ? parseWith(schema, {}, 'request body') : readJsonBody(c, schema);
}

/** `uploadLimitBytes`: the upload's size limit, counted as the body streams in. */
export function campaignRoutes({
  campaigns,
  uploadLimitBytes,
}: {
  campaigns: CampaignService;
  uploadLimitBytes: number;
}) {
  return new Hono<AppEnv>()
    .post('/campaigns/upload', async (c) => answer(c, await uploadCsv(c, campaigns, uploadLimitBytes), 200))
    .post('/campaigns', async (c) => {
      const body = await readJsonBody(c, CreateCampaignBodySchema);
      return answer(c, campaigns.create(c.get('appId'), body), 200);
    })
    .get('/campaigns', (c) => {
      const { status, page } = parseWith(ListCampaignsQuerySchema, c.req.query(), 'query');
      return answerPage(c, campaigns.list(c.get('appId'), { status }, page));
    })
    .get('/campaigns/:id', (c) => answer(c, campaigns.get(c.get('appId'), c.req.param('id')), 200))
    .put('/campaigns/:id', async (c) => {
      const body = await readJsonBody(c, UpdateCampaignBodySchema);
      return answer(c, campaigns.update(c.get('appId'), c.req.param('id'), body), 200);
    })
    .post('/campaigns/:id/recipients', async (c) => {
      const { userIds } = await readJsonBody(c, AddRecipientsBodySchema);
      return answer(c, campaigns.addRecipients(c.get('appId'), c.req.param('id'), userIds), 200);
    })
    .get('/campaigns/:id/recipients', (c) => {
      const { status, page } = parseWith(ListRecipientsQuerySchema, c.req.query(), 'query');
      return answerPage(c, campaigns.listRecipients(c.get('appId'), c.req.param('id'), { status }, page));
    })
    .post('/campaigns/:id/send', async (c) => {
      const body = await readOptionalJson(c, SendCampaignBodySchema);
      return answer(
        c,
        campaigns.send(c.get('appId'), c.req.param('id'), body, c.get('scenarioScope').deliveryFaults),
        200,
      );
    });
}
