/**
 * Template-channel rows: the content of one template for one channel (the real service's
 * `/api/template-channels` endpoints). Stored with the app that owns them.
 */
import { z } from 'zod';
import { absentWhenEmpty, pagedQuery } from './paging.js';
import { CHANNEL_TYPES } from './channel-types.js';
import { jsonObject } from './json-object.js';

const JsonObject = z.record(z.string(), z.unknown());
const required = (what: string) =>
  z
    .string({ error: `is required: ${what}` })
    .refine((s) => s.trim().length > 0, `is required: ${what}`)
    .transform((s) => s.trim());
const contentField = jsonObject('is required: a JSON object (e.g. {"title": "…", "body": "…"})');

/** The row as the API answers it. */
export const TemplateChannelSchema = z.object({
  /** The template's id (24 hex), whichever of id or slug the row was created with. */
  templateId: z.string(),
  channelId: z.string(),
  channelType: z.enum(CHANNEL_TYPES),
  /** Free-form per-channel content; `{{variable}}` placeholders in its strings are filled at send time. */
  content: JsonObject,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TemplateChannel = z.infer<typeof TemplateChannelSchema>;

/** The row as the store keeps it: the app that owns it, plus the answer's fields. */
export const TemplateChannelRecordSchema = TemplateChannelSchema.extend({ appId: z.string() });
export type TemplateChannelRecord = z.infer<typeof TemplateChannelRecordSchema>;

export const CreateTemplateChannelBodySchema = z.object({
  templateId: required('the id (or slug) of a template of this app'),
  channelId: required('the id (or key) of a channel of this app'),
  channelType: z.enum(CHANNEL_TYPES, { error: `is required: one of ${CHANNEL_TYPES.join(', ')}` }),
  content: contentField,
});
export type CreateTemplateChannelBody = z.infer<typeof CreateTemplateChannelBodySchema>;

export const UpdateTemplateChannelBodySchema = z.object({ content: contentField });
export type UpdateTemplateChannelBody = z.infer<typeof UpdateTemplateChannelBodySchema>;

export const ListTemplateChannelsQuerySchema = pagedQuery({
  templateId: absentWhenEmpty(required('the id (or slug) of the template whose rows to list, e.g. ?templateId=…')),
});
