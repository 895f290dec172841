/**
 * The real service's template object (docs/fidelity.md#templates-api) built from our Template record:
 * `templateId` = key (kept as `key` too), variableSchema in map form, `channelIds`.
 */
import type { z } from 'zod';
import type { Template, VariableSchemaEntry } from '../schemas/records.js';
import type { Channel } from '../schemas/channels.js';
import type { TemplateViewSchema } from '../schemas/responses.js';
import { TemplateExtrasSchema, type TemplateExtras } from '../schemas/templates.js';
import type { ChannelCatalog } from './ports.js';

/** The template object the API answers with; its shape is a schema (the OpenAPI document is generated from it). */
export type TemplateView = z.infer<typeof TemplateViewSchema>;

/** A runtime template record: our Template plus the real service's extra fields. */
export type RuntimeTemplate = Template & TemplateExtras;

/** Extras stored with a runtime template; defaults for fixture templates. */
export function extrasOf(template: Template): TemplateExtras {
  const parsed = TemplateExtrasSchema.safeParse(template);
  return parsed.success ? parsed.data : TemplateExtrasSchema.parse({});
}

/**
 * A template's channel ids. A fixture template without `channelIds` is linked to every
 * channel of the caller's app whose type it delivers through [decided].
 */
export function channelIdsOf(channels: ChannelCatalog, appId: string, template: Template): string[] {
  if (template.channelIds) return template.channelIds;
  if (template.source === 'runtime') return extrasOf(template).channelIds;
  return channels
    .list(appId)
    .filter((ch) => template.channels.includes(ch.type))
    .map((ch) => ch.id);
}

export function toTemplateView(channels: ChannelCatalog, appId: string, template: Template): TemplateView {
  const extras = extrasOf(template);
  return {
    id: template.id,
    // Shared fixtures are shown as the caller's: the real service has no shared templates.
    appId: template.appId ?? appId,
    name: template.name,
    templateId: template.key,
    key: template.key,
    status: template.status,
    category: template.category,
    channelIds: channelIdsOf(channels, appId, template),
    channels: template.channels,
    variableSchema: Object.fromEntries(
      template.variableSchema.map((v) => [v.key, { type: v.type, name: v.name, required: v.required }]),
    ),
    config: extras.config,
    availability: extras.availability,
    sequence: extras.sequence,
    content: template.content,
    source: template.source,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
  };
}

/** A template as GET /__apps/{appId}/templates gives it: the API's template object, variables as a list, a sample. */
export type TemplateSample = TemplateView & {
  variableList: VariableSchemaEntry[];
  sample: { variables: Record<string, unknown>; rendered: Record<string, unknown> };
};

/** GET /__apps/{appId}/templates answers this. */
export interface AppTemplates {
  appId: string;
  authMode: 'open' | 'strict';
  channels: Channel[];
  items: TemplateSample[];
}
