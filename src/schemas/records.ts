/**
 * Shapes of the records the emulator keeps (templates, deliveries, notifications,
 * campaigns, recipients, journal). Types come from these schemas via z.infer.
 */
import { z } from 'zod';

export const VARIABLE_TYPES = ['string', 'image', 'action'] as const;
export const TEMPLATE_STATUSES = ['draft', 'approved', 'archived'] as const;
export const MODES = ['realtime', 'batch'] as const;

export const VariableSchemaEntrySchema = z.object({
  key: z.string(),
  type: z.enum(VARIABLE_TYPES),
  name: z.string(),
  required: z.boolean(),
});
export type VariableSchemaEntry = z.infer<typeof VariableSchemaEntrySchema>;

/** A template's content for one channel, as a fixture file gives it. */
export const TemplateRowSchema = z.object({
  channelId: z.string(),
  channelType: z.string(),
  content: z.record(z.string(), z.unknown()),
});
export type TemplateRow = z.infer<typeof TemplateRowSchema>;

export const TemplateSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  status: z.enum(TEMPLATE_STATUSES),
  channels: z.array(z.string()),
  variableSchema: z.array(VariableSchemaEntrySchema),
  content: z.record(z.string(), z.unknown()),
  category: z.string().nullable(),
  /** null: visible to every app; otherwise only to this app. */
  appId: z.string().nullable(),
  source: z.enum(['fixture', 'runtime']),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Channels the template is linked to, by id. Absent on a fixture template without `channelIds`: linked by type. */
  channelIds: z.array(z.string()).optional(),
  /** Per-channel content from the fixture file (`rows`); the app's rows made through the API win over these. */
  rows: z.array(TemplateRowSchema).optional(),
});
export type Template = z.infer<typeof TemplateSchema>;

export const DeliveryStatusSchema = z.enum(['sent', 'failed']);
export const DeliverySchema = z.object({
  id: z.string(),
  appId: z.string(),
  notificationId: z.string().nullable(),
  campaignId: z.string().nullable(),
  userId: z.string(),
  templateId: z.string(),
  templateKey: z.string(),
  channels: z.array(z.string()),
  mode: z.enum(MODES),
  title: z.string().nullable(),
  tag: z.string().nullable(),
  variables: z.record(z.string(), z.unknown()),
  rendered: z.record(z.string(), z.unknown()),
  pushData: z.record(z.string(), z.unknown()).nullable(),
  status: DeliveryStatusSchema,
  failureReason: z.string().nullable(),
  scenario: z.string().nullable(),
  createdAt: z.string(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

export const NotificationSchema = z.object({
  notificationId: z.string(),
  templateKey: z.string(),
  channels: z.array(z.string()),
  mode: z.enum(MODES),
  title: z.string().nullable(),
  tag: z.string().nullable(),
  sentFrom: z.string(),
  createdAt: z.string(),
});
/** The Notification object the send endpoint answers with (spec: eight fields). */
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationRecordSchema = NotificationSchema.extend({
  appId: z.string(),
  templateId: z.string(),
  targetCount: z.number(),
  sentCount: z.number(),
  failedCount: z.number(),
});
/** What /__inspect/notifications keeps: one per send call. */
export type NotificationRecord = z.infer<typeof NotificationRecordSchema>;

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'failed'] as const;
export const CampaignSchema = z.object({
  id: z.string(),
  appId: z.string(),
  name: z.string(),
  templateId: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  deliveryMode: z.enum(MODES),
  tag: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  recipientCount: z.number(),
  sentCount: z.number(),
  failedCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type Campaign = z.infer<typeof CampaignSchema>;
export type CampaignStatus = Campaign['status'];

/** The summary of a campaign's last accepted CSV upload, kept for /__inspect (the upload's answer, remembered). */
export const CampaignUploadSchema = z.object({
  campaignId: z.string(),
  at: z.string().describe('When the upload was accepted (emulator clock).'),
  uploaded: z.number().describe('Recipients the upload added.'),
  skipped: z.number().describe('Rows left out, all of them.'),
  errors: z
    .array(z.object({ row: z.number(), reason: z.string() }))
    .describe('Why rows were left out, in file order: the first 100, as the upload answered.'),
});
export type CampaignUpload = z.infer<typeof CampaignUploadSchema>;

export const RECIPIENT_STATUSES = ['pending', 'sent', 'failed'] as const;
export const RecipientSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  appId: z.string(),
  userId: z.string(),
  variables: z.record(z.string(), z.unknown()),
  status: z.enum(RECIPIENT_STATUSES),
  failureReason: z.string().nullable(),
  deliveryId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Recipient = z.infer<typeof RecipientSchema>;
export type RecipientStatus = Recipient['status'];

/** A scenario rule that shaped a request: `rule` is its explanation when it applied, `index` counts from 1. */
export const AppliedRuleSchema = z.object({ scenario: z.string(), index: z.number(), rule: z.string() });

/** What the proxy mode (`--upstream`) did with a request it forwarded to the live service. */
export const UpstreamCallSchema = z.object({
  /** The URL the call was forwarded to, query included. */
  url: z.string(),
  /** The live service's status; null when it gave none (refused connection, timeout: see `error`). */
  status: z.number().nullable(),
  /** Milliseconds from forwarding the call to the live answer read whole (or the failure). */
  durationMs: z.number(),
  /** What in the live answer the emulator's OpenAPI document does not allow, one line each: `JSON path: expected …`. */
  violations: z.array(z.string()),
  /** Why the live service gave no answer (then the caller got ERR_OPERATION_FAILED); null when it answered. */
  error: z.string().nullable(),
});
export type UpstreamCall = z.infer<typeof UpstreamCallSchema>;

export const JournalEntrySchema = z.object({
  id: z.string(),
  time: z.string(),
  method: z.string(),
  path: z.string(),
  /** The raw query string without `?`; "" when none. */
  query: z.string(),
  appId: z.string().nullable(),
  status: z.number(),
  errorCode: z.string().nullable(),
  /** The last rule that applied (kept for older clients); `rules` lists every one. */
  scenario: z.string().nullable(),
  rule: z.string().nullable(),
  /** Every scenario rule that applied to this request and the deliveries it caused, in order, each once. */
  rules: z.array(AppliedRuleSchema),
  /** Lower-case names; `apikey` and `authorization` masked as "***". */
  requestHeaders: z.record(z.string(), z.string()),
  /** Text, at most 64 KiB (UTF-8); null when the request had no body. */
  requestBody: z.string().nullable(),
  requestBodyTruncated: z.boolean(),
  responseBody: z.string().nullable(),
  responseBodyTruncated: z.boolean(),
  durationMs: z.number(),
  /** Proxy mode only: the call as forwarded to the live service (absent when it was answered here, e.g. by a fault). */
  upstream: UpstreamCallSchema.optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;
