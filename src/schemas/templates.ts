/**
 * Runtime-template shapes of the real service's API (docs/fidelity.md#templates-api): create and update
 * bodies, the extras a runtime template keeps, and the list query.
 */
import { z } from 'zod';
import { TEMPLATE_STATUSES } from './records.js';
import { VariableSchemaInputSchema } from './template-file.js';
import { JsonObject } from './channels.js';
import { absentWhenEmpty, pagedQuery } from './paging.js';

/**
 * A template's channels: the real docs have a template linked to one or more channels when it is
 * created, so an empty list is refused, on an update too (docs/fidelity.md#templates-api).
 */
const ChannelIdsSchema = z
  .array(z.string().min(1, 'must be a non-empty channel id'))
  .min(1, 'must name at least one channel: a template is linked to one or more channels');

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
  channelIds: ChannelIdsSchema,
  variableSchema: VariableSchemaInputSchema.default([]),
  config: JsonObject.default({}),
  availability: z.string().optional(),
  sequence: z.number().int().optional(),
  /** Emulator extension: per-channel-type content, as in fixture files (docs/reference.md#templates). */
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
  channelIds: ChannelIdsSchema.optional(),
  content: JsonObject.optional(),
  /** Immutable: accepted only when equal to the current slug. */
  templateId: z.string().optional(),
  key: z.string().optional(),
});
export type UpdateTemplateBody = z.infer<typeof UpdateTemplateBodySchema>;

export const ListTemplatesQuerySchema = pagedQuery({ channelId: absentWhenEmpty(z.string().optional()) });
