/**
 * What `pull` and `check-fixtures` accept from a live account's documented endpoints: the
 * template object (slug in `templateId`, variableSchema in map or array form), template-channel
 * rows and channels. Lenient where the documentation is (unknown fields are dropped), strict
 * where a fixture needs the value.
 */
import { z } from 'zod';
import { TEMPLATE_STATUSES } from './records.js';
import { VariableSchemaInputSchema } from './template-file.js';

const JsonObject = z.record(z.string(), z.unknown());

export const LiveTemplateSchema = z
  .object({
    id: z.string().min(1),
    /** The slug (documented name); `key` is the emulator's name for the same value. */
    templateId: z.string().min(1).optional(),
    key: z.string().min(1).optional(),
    name: z.string().min(1),
    status: z.enum(TEMPLATE_STATUSES),
    category: z.string().nullish(),
    channelIds: z.array(z.string().min(1)).nullish(),
    variableSchema: VariableSchemaInputSchema.nullish(),
    /** Not documented: emulator extensions, read only for a template without rows. */
    content: JsonObject.nullish(),
    channels: z.array(z.string().min(1)).nullish(),
  })
  .refine((t) => t.templateId !== undefined || t.key !== undefined, {
    message: 'has neither "templateId" (the slug) nor "key"',
    path: ['templateId'],
  });
export type LiveTemplate = z.infer<typeof LiveTemplateSchema>;

export const LiveTemplateChannelSchema = z.object({
  templateId: z.string().min(1),
  channelId: z.string().min(1),
  channelType: z.string().min(1),
  content: JsonObject,
});
export type LiveTemplateChannel = z.infer<typeof LiveTemplateChannelSchema>;

export const LiveChannelSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  key: z.string().min(1),
  type: z.string().min(1),
  templateType: z.string().min(1),
  enabled: z.boolean(),
  categoryFilter: z.boolean().default(false),
  templateLabel: z.boolean().default(false),
});
export type LiveChannel = z.infer<typeof LiveChannelSchema>;
