/**
 * Fixture template files (docs/reference.md#templates): one template or an array per file. Accepts the
 * spec's array form of variableSchema and the real service's map form, and normalises both.
 */
import { z } from 'zod';
import { TEMPLATE_STATUSES, VARIABLE_TYPES } from './records.js';
import { CHANNEL_TYPES } from './channel-types.js';
import { jsonObject, kindOf } from './json-object.js';

/**
 * A refused value in a few words: a string or number as written (a long string cut short),
 * anything else by its kind. Never the whole value: a fixture's object can be nested deeper
 * than JSON.stringify can go, or be megabytes long.
 */
function received(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === undefined) return 'nothing';
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : kindOf(value);
}

/** `must be one of "string", "image", "action" (got "number")`. */
const VariableTypeSchema = z.enum(VARIABLE_TYPES, {
  error: (issue) => `must be one of ${VARIABLE_TYPES.map((t) => `"${t}"`).join(', ')} (got ${received(issue.input)})`,
});

const VariableEntryInputSchema = z.object({
  key: z.string().min(1),
  type: VariableTypeSchema,
  name: z.string().optional(),
  required: z.boolean().default(true),
});

const VariableMapValueSchema = z.object({
  type: VariableTypeSchema,
  name: z.string().optional(),
  required: z.boolean().default(true),
});

const VariableArrayInputSchema = z.array(VariableEntryInputSchema).superRefine((entries, ctx) => {
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (seen.has(entry.key))
      ctx.addIssue({ code: 'custom', path: [index, 'key'], message: `variable "${entry.key}" is declared twice` });
    seen.add(entry.key);
  });
});

export const VariableSchemaInputSchema = z.union([
  VariableArrayInputSchema,
  z.record(z.string().min(1), VariableMapValueSchema),
]);

export const TemplateFileRowSchema = z.object({
  /** Accepted (and checked against the template) so a row copied from the API loads as is. */
  templateId: z.string().optional(),
  channelId: z.string().min(1, 'must be the id of a channel in channels.json'),
  channelType: z.enum(CHANNEL_TYPES).optional(),
  content: jsonObject('must be a JSON object'),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});

export const TemplateFileEntrySchema = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{24}$/, 'must be 24 lowercase hex characters')
    .optional(),
  key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be a slug: letters, digits, "-" and "_"'),
  name: z.string().min(1).optional(),
  status: z.enum(TEMPLATE_STATUSES).default('approved'),
  channels: z.array(z.string().min(1)).min(1).optional(),
  variableSchema: VariableSchemaInputSchema.default([]),
  content: z.record(z.string(), z.unknown()).default({}),
  category: z.string().optional(),
  appId: z.string().min(1).optional(),
  /** Ids of channels in channels.json the template is linked to. */
  channelIds: z.array(z.string().min(1, 'must be a non-empty channel id')).optional(),
  /** Content per channel; the answer of GET /api/template-channels fits as is. */
  rows: z.array(TemplateFileRowSchema).optional(),
});
export type TemplateFileEntry = z.infer<typeof TemplateFileEntrySchema>;

/**
 * Parses a file's JSON with the branch its shape calls for, so problems name the field
 * (`status`, `1.variableSchema.0.type`) instead of a bare "invalid input" from the union.
 */
export function parseTemplateFile(json: unknown) {
  return Array.isArray(json)
    ? z.array(TemplateFileEntrySchema).safeParse(json)
    : TemplateFileEntrySchema.safeParse(json);
}

export interface NormalisedVariable {
  key: string;
  type: (typeof VARIABLE_TYPES)[number];
  name: string;
  required: boolean;
}

/** Map form `{ name: { type } }` → spec array form; `name` defaults to the key. */
export function toVariableArray(input: z.infer<typeof VariableSchemaInputSchema>): NormalisedVariable[] {
  if (Array.isArray(input)) {
    return input.map((v) => ({ key: v.key, type: v.type, name: v.name ?? v.key, required: v.required }));
  }
  return Object.entries(input).map(([key, v]) => ({ key, type: v.type, name: v.name ?? key, required: v.required }));
}
