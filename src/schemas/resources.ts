/**
 * Shapes of the real service's resources beyond our spec (CONTRACT §5.5): channels,
 * runtime-template bodies and extras, analytics events and queries.
 */
import { z } from 'zod';
import { TEMPLATE_STATUSES } from './records.js';
import { VariableSchemaInputSchema } from './template-file.js';
import { absentWhenEmpty, pagedQuery } from './paging.js';
import { CHANNEL_TEMPLATE_TYPES, CHANNEL_TYPES } from './channel-types.js';
export { CHANNEL_TEMPLATE_TYPES, CHANNEL_TYPES, type ChannelType } from './channel-types.js';
export const ANALYTICS_EVENT_TYPES = ['delivered', 'viewed', 'clicked'] as const;

const JsonObject = z.record(z.string(), z.unknown());

// ---- channels (research §2.2) ----

export const ChannelSchema = z.object({
  id: z.string(),
  appId: z.string(),
  name: z.string(),
  key: z.string(),
  type: z.enum(CHANNEL_TYPES),
  templateType: z.enum(CHANNEL_TEMPLATE_TYPES),
  enabled: z.boolean(),
  categoryFilter: z.boolean(),
  templateLabel: z.boolean(),
  config: JsonObject,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Channel = z.infer<typeof ChannelSchema>;

export const CreateChannelBodySchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty string'),
  type: z.enum(CHANNEL_TYPES),
  templateType: z.enum(CHANNEL_TEMPLATE_TYPES),
  enabled: z.boolean().default(true),
  categoryFilter: z.boolean().default(false),
  templateLabel: z.boolean().default(false),
  config: JsonObject.default({}),
});
export type CreateChannelBody = z.infer<typeof CreateChannelBodySchema>;

/** Immutable fields are accepted loosely here so the domain can say "immutable" rather than "wrong type". */
export const UpdateChannelBodySchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty string').optional(),
  enabled: z.boolean().optional(),
  templateType: z.enum(CHANNEL_TEMPLATE_TYPES).optional(),
  config: JsonObject.optional(),
  type: z.unknown().optional(),
  key: z.unknown().optional(),
  categoryFilter: z.unknown().optional(),
  templateLabel: z.unknown().optional(),
});
export type UpdateChannelBody = z.infer<typeof UpdateChannelBodySchema>;

// ---- templates (research §2.3) ----

const SlugSchema = z
  .string()
  .max(100, 'must be at most 100 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
    'must be a slug: letters, digits, "-" and "_", starting with a letter or digit',
  );

/** Fields a runtime template keeps beyond our Template record; stored alongside it. */
export const TemplateExtrasSchema = z.object({
  channelIds: z.array(z.string()).default([]),
  config: JsonObject.default({}),
  availability: z.string().nullable().default(null),
  sequence: z.number().nullable().default(null),
});
export type TemplateExtras = z.infer<typeof TemplateExtrasSchema>;

export const CreateTemplateBodySchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty string'),
  templateId: SlugSchema.optional(),
  category: z.string().optional(),
  channelIds: z.array(z.string().min(1, 'must be a non-empty channel id')),
  variableSchema: VariableSchemaInputSchema.default([]),
  config: JsonObject.default({}),
  availability: z.string().optional(),
  sequence: z.number().int().optional(),
  /** Emulator extension: per-channel-type content, as in fixture files (CONTRACT §4). */
  content: JsonObject.default({}),
});
export type CreateTemplateBody = z.infer<typeof CreateTemplateBodySchema>;

export const UpdateTemplateBodySchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty string').optional(),
  category: z.string().nullable().optional(),
  status: z.enum(TEMPLATE_STATUSES).optional(),
  availability: z.string().nullable().optional(),
  sequence: z.number().int().nullable().optional(),
  config: JsonObject.optional(),
  variableSchema: VariableSchemaInputSchema.optional(),
  channelIds: z.array(z.string().min(1, 'must be a non-empty channel id')).optional(),
  content: JsonObject.optional(),
  /** Immutable: accepted only when equal to the current slug. */
  templateId: z.string().optional(),
  key: z.string().optional(),
});
export type UpdateTemplateBody = z.infer<typeof UpdateTemplateBodySchema>;

export const ListTemplatesQuerySchema = pagedQuery({ channelId: absentWhenEmpty(z.string().optional()) });

export const ListChannelsQuerySchema = pagedQuery({});

// ---- analytics (research §2.6) ----

export const AnalyticsEventSchema = z.object({
  id: z.string(),
  appId: z.string(),
  /** A campaign id or a notification id (research §2.6: BM names the field campaignId for both). */
  campaignId: z.string(),
  userId: z.string(),
  channelType: z.enum(CHANNEL_TYPES),
  eventType: z.enum(ANALYTICS_EVENT_TYPES),
  createdAt: z.string(),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEventSchema>;

export const RecordEventBodySchema = z.object({
  campaignId: z.string().min(1, 'must be a campaign or notification id'),
  userId: z.string().min(1, 'must be a non-empty user id'),
  channelType: z.enum(CHANNEL_TYPES),
  eventType: z.enum(ANALYTICS_EVENT_TYPES),
});
export type RecordEventBody = z.infer<typeof RecordEventBodySchema>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const isoInstant = (endOfDay: boolean) =>
  z
    .string({ error: 'is required (ISO 8601 date or date-time)' })
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)),
      'must be an ISO 8601 date or date-time',
    )
    // A bare date as `to` covers that whole day.
    .transform((s) => Date.parse(s) + (endOfDay && DATE_ONLY.test(s) ? 86_400_000 - 1 : 0));

export const ChannelAnalyticsQuerySchema = z.object({
  from: absentWhenEmpty(isoInstant(false)),
  to: absentWhenEmpty(isoInstant(true)),
  granularity: absentWhenEmpty(z.enum(['hourly', 'daily']).default('daily')),
});
export type ChannelAnalyticsQuery = z.infer<typeof ChannelAnalyticsQuerySchema>;
