/**
 * OpenAPI operations of the campaign routes, the CSV upload among them.
 */
import { z } from 'zod';
import {
  AddRecipientsBodySchema,
  CreateCampaignBodySchema,
  ListCampaignsQuerySchema,
  ListRecipientsQuerySchema,
  SendCampaignBodySchema,
  UpdateCampaignBodySchema,
  UploadFormSchema,
} from '../schemas/campaigns.js';
import { CampaignSchema, RecipientSchema } from '../schemas/records.js';
import {
  AddRecipientsResultSchema,
  CampaignViewSchema,
  SendCampaignResultSchema,
  UploadResultSchema,
} from '../schemas/responses.js';
import type { Resource } from './operation.js';

const CampaignIdParams = z.object({ id: z.string().describe('The campaign id.') });
const TOTAL = { 'X-Total-Count': 'How many items match, over all pages.' };

export const campaignsResource: Resource = {
  tag: {
    name: 'Campaigns',
    description: 'Draft a campaign, add recipients (by id or CSV upload), send it now or schedule it.',
  },
  components: {
    Campaign: CampaignSchema,
    CampaignView: CampaignViewSchema,
    Recipient: RecipientSchema,
    SendCampaignResult: SendCampaignResultSchema,
    AddRecipientsResult: AddRecipientsResultSchema,
    UploadResult: UploadResultSchema,
  },
  operations: [
    {
      method: 'post',
      path: '/api/campaigns/upload',
      operationId: 'uploadRecipients',
      summary: 'Upload recipients from a CSV file',
      description:
        'A `userId` column plus one column per template variable. The whole file is refused on a ' +
        'file-level problem; row problems are listed in `errors` and the other rows are added.',
      multipart: { schema: UploadFormSchema, name: 'UploadRecipientsForm' },
      responses: { 200: { description: 'What the file added.', schema: UploadResultSchema } },
      errors: { 400: ['ERR_BAD_REQUEST', 'ERR_TEMPLATE_NOT_APPROVED'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'post',
      path: '/api/campaigns',
      operationId: 'createCampaign',
      summary: 'Create a draft campaign',
      body: { schema: CreateCampaignBodySchema, name: 'CreateCampaignRequest' },
      responses: { 200: { description: 'The new draft campaign.', schema: CampaignSchema } },
      errors: { 400: ['ERR_BAD_REQUEST', 'ERR_TEMPLATE_NOT_APPROVED'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/api/campaigns',
      operationId: 'listCampaigns',
      summary: 'List campaigns',
      query: ListCampaignsQuerySchema,
      responses: {
        200: { description: 'One page of campaigns.', schema: z.array(CampaignViewSchema), headers: TOTAL },
      },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/api/campaigns/{id}',
      operationId: 'getCampaign',
      summary: 'Get a campaign',
      pathParams: CampaignIdParams,
      responses: { 200: { description: 'The campaign.', schema: CampaignViewSchema } },
      errors: { 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'put',
      path: '/api/campaigns/{id}',
      operationId: 'updateCampaign',
      summary: 'Update a draft campaign',
      pathParams: CampaignIdParams,
      body: { schema: UpdateCampaignBodySchema, name: 'UpdateCampaignRequest' },
      responses: { 200: { description: 'The updated campaign.', schema: CampaignSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'post',
      path: '/api/campaigns/{id}/recipients',
      operationId: 'addRecipients',
      summary: 'Add recipients by user id',
      pathParams: CampaignIdParams,
      body: { schema: AddRecipientsBodySchema, name: 'AddRecipientsRequest' },
      responses: { 200: { description: 'How many were added.', schema: AddRecipientsResultSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/api/campaigns/{id}/recipients',
      operationId: 'listRecipients',
      summary: "List a campaign's recipients",
      pathParams: CampaignIdParams,
      query: ListRecipientsQuerySchema,
      responses: {
        200: { description: 'One page of recipients.', schema: z.array(RecipientSchema), headers: TOTAL },
      },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'post',
      path: '/api/campaigns/{id}/send',
      operationId: 'sendCampaign',
      summary: 'Send a campaign now or schedule it',
      description: 'An empty body (or `{}`) sends now; `scheduledAt` (in the future) schedules it.',
      pathParams: CampaignIdParams,
      body: { schema: SendCampaignBodySchema, name: 'SendCampaignRequest', optional: true },
      responses: { 200: { description: 'The campaign, sending or scheduled.', schema: SendCampaignResultSchema } },
      errors: { 400: ['ERR_BAD_REQUEST', 'ERR_TEMPLATE_NOT_APPROVED'], 404: ['ERR_NOT_FOUND'] },
    },
  ],
};
