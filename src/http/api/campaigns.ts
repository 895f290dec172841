/**
 * Campaign routes of the emulated API (docs/reference.md#campaigns), including the multipart CSV
 * upload. Lists answer bare JSON arrays like the real docs, with the total in X-Total-Count.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { badRequest } from '../../domain/errors.js';
import {
  AddRecipientsBodySchema,
  CreateCampaignBodySchema,
  ListCampaignsQuerySchema,
  ListRecipientsQuerySchema,
  SendCampaignBodySchema,
  UpdateCampaignBodySchema,
  UploadFormSchema,
} from '../../schemas/campaigns.js';
import type { CampaignService } from '../../domain/campaigns.js';
import type { AppEnv } from '../context.js';
import { readMultipart } from '../multipart.js';
import { parseWith, readJsonBody } from '../validate.js';
import { issueDetails } from '../../schemas/issues.js';

/** The send body may be `{}` or absent altogether (both mean "send now"). */
async function readOptionalJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  return text.trim() === '' ? parseWith(schema, {}, 'request body') : readJsonBody(c, schema);
}

/**
 * docs/reference.md#upload-recipients-csv: multipart/form-data with a `file` part and a
 * `campaignId` field; each missing one is named.
 */
async function readUploadForm(c: Context<AppEnv>): Promise<{ campaignId: string; file: Uint8Array }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type.trim())) {
    throw badRequest(
      `The upload must be multipart/form-data with a "file" part and a "campaignId" field (got Content-Type ` +
        `"${type || 'none'}"), e.g. curl -F file=@recipients.csv -F campaignId=<id>.`,
      {
        'content-type': 'must be multipart/form-data',
        file: 'is required (the CSV file)',
        campaignId: 'is required',
      },
    );
  }
  let fields: { campaignId: unknown; file: Uint8Array | null };
  try {
    fields = await readUploadFields(c, type);
  } catch (error) {
    throw badRequest(`The multipart body could not be read: ${(error as Error).message}`, {
      body: 'malformed multipart/form-data',
    });
  }
  const result = UploadFormSchema.safeParse(fields);
  if (!result.success) {
    const details = issueDetails(result.error);
    throw badRequest(`Missing form field(s): ${Object.keys(details).join(', ')}.`, details);
  }
  return result.data;
}

/**
 * The two fields, with the file as a view into the one body buffer (multipart.ts) rather
 * than FormData → Blob → ArrayBuffer copies of it. The file may be a file part or a text field.
 */
async function readUploadFields(
  c: Context<AppEnv>,
  type: string,
): Promise<{ campaignId: unknown; file: Uint8Array | null }> {
  if (c.req.bodyCache.formData) {
    // Already read as FormData (a scenario's body matcher): its boundary is no longer the header's.
    const form = await c.req.parseBody();
    const file = form.file;
    const bytes =
      typeof file === 'string'
        ? new TextEncoder().encode(file)
        : file instanceof Blob
          ? new Uint8Array(await file.arrayBuffer())
          : null;
    return { campaignId: form.campaignId, file: bytes };
  }
  const parts = readMultipart(new Uint8Array(await c.req.arrayBuffer()), type);
  const id = parts.get('campaignId');
  // A campaignId sent as a file part is not the field (as with FormData).
  const campaignId = id && id.filename === null ? new TextDecoder().decode(id.data) : undefined;
  return { campaignId, file: parts.get('file')?.data ?? null };
}

export function campaignRoutes({ campaigns }: { campaigns: CampaignService }) {
  return new Hono<AppEnv>()
    .post('/campaigns/upload', async (c) => {
      const { campaignId, file } = await readUploadForm(c);
      return c.json(campaigns.upload(c.get('appId'), campaignId, file), 200);
    })
    .post('/campaigns', async (c) => {
      const body = await readJsonBody(c, CreateCampaignBodySchema);
      return c.json(campaigns.create(c.get('appId'), body), 200);
    })
    .get('/campaigns', (c) => {
      const { status, page } = parseWith(ListCampaignsQuerySchema, c.req.query(), 'query');
      const { total, items } = campaigns.list(c.get('appId'), { status }, page);
      return c.json(items, 200, { 'X-Total-Count': String(total) });
    })
    .get('/campaigns/:id', (c) => c.json(campaigns.get(c.get('appId'), c.req.param('id')), 200))
    .put('/campaigns/:id', async (c) => {
      const body = await readJsonBody(c, UpdateCampaignBodySchema);
      return c.json(campaigns.update(c.get('appId'), c.req.param('id'), body), 200);
    })
    .post('/campaigns/:id/recipients', async (c) => {
      const { userIds } = await readJsonBody(c, AddRecipientsBodySchema);
      return c.json(campaigns.addRecipients(c.get('appId'), c.req.param('id'), userIds), 200);
    })
    .get('/campaigns/:id/recipients', (c) => {
      const { status, page } = parseWith(ListRecipientsQuerySchema, c.req.query(), 'query');
      const { total, items } = campaigns.listRecipients(c.get('appId'), c.req.param('id'), { status }, page);
      return c.json(items, 200, { 'X-Total-Count': String(total) });
    })
    .post('/campaigns/:id/send', async (c) => {
      const body = await readOptionalJson(c, SendCampaignBodySchema);
      return c.json(
        campaigns.send(c.get('appId'), c.req.param('id'), body, c.get('scenarioScope').deliveryFaults),
        200,
      );
    });
}
