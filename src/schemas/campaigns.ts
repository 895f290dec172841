/**
 * Request shapes of the campaign routes of the emulated API (docs/reference.md#campaigns). Rules
 * with their own codes (template approved, campaign status) are checked in domain/.
 */
import { z } from 'zod';
import { MODES, RECIPIENT_STATUSES, CAMPAIGN_STATUSES } from './records.js';
import { absentWhenEmpty, pagedQuery } from './paging.js';
import { userIdList } from './user-ids.js';

const nonBlank = (what: string) =>
  z
    .string({ error: `is required: a non-empty ${what}` })
    .refine((s) => s.trim().length > 0, `must be a non-empty ${what}`);
const deliveryMode = z.enum(MODES, { error: 'must be "batch" or "realtime"' });

export const CreateCampaignBodySchema = z.object({
  name: nonBlank('string'),
  templateId: nonBlank('template id or key'),
  deliveryMode,
  tag: z.string({ error: 'must be a string' }).nullish(),
});
export type CreateCampaignBody = z.infer<typeof CreateCampaignBodySchema>;

export const UpdateCampaignBodySchema = z.object({
  name: nonBlank('string').optional(),
  tag: z.string({ error: 'must be a string' }).nullish(),
  deliveryMode: deliveryMode.optional(),
});
export type UpdateCampaignBody = z.infer<typeof UpdateCampaignBodySchema>;

/** The real service's sibling API allows 1–10,000 user IDs per call (docs/fidelity.md#campaigns). */
export const MAX_USER_IDS_PER_CALL = 10_000;
export const AddRecipientsBodySchema = z.object({
  userIds: userIdList({
    count: MAX_USER_IDS_PER_CALL,
    message: `must contain at most ${MAX_USER_IDS_PER_CALL} user IDs per call`,
  }),
});

export const SendCampaignBodySchema = z.object({
  scheduledAt: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. 2030-01-01T09:00:00Z' })
    .nullish(),
});
export type SendCampaignBody = z.infer<typeof SendCampaignBodySchema>;

export const ListCampaignsQuerySchema = pagedQuery({
  status: absentWhenEmpty(
    z.enum(CAMPAIGN_STATUSES, { error: `must be one of ${CAMPAIGN_STATUSES.join(', ')}` }).optional(),
  ),
});

export const ListRecipientsQuerySchema = pagedQuery({
  status: absentWhenEmpty(
    z.enum(RECIPIENT_STATUSES, { error: `must be one of ${RECIPIENT_STATUSES.join(', ')}` }).optional(),
  ),
});
const CAMPAIGN_ID_REQUIRED = 'is required: the id of a draft campaign';
/** The CSV upload's multipart/form-data fields (the route reads the parts itself, without copies). */
export const UploadFormSchema = z.object({
  campaignId: z.string({ error: CAMPAIGN_ID_REQUIRED }).trim().min(1, CAMPAIGN_ID_REQUIRED),
  file: z
    .custom<Uint8Array>((v) => v instanceof Uint8Array, { error: 'is required: the CSV file as a multipart file part' })
    .meta({
      type: 'string',
      contentMediaType: 'text/csv',
      description: 'The CSV file: a `userId` column and one column per template variable.',
    }),
});
