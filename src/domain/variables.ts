/**
 * Template variables: checking values against a variableSchema (CONTRACT §4 value
 * shapes) and rendering `{{key}}` placeholders in a template's content.
 */
import type { VariableSchemaEntry } from '../schemas/records.js';
import type { ErrorDetails } from './errors.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const ACTION_TYPES = ['web', 'custom'];

/** What is wrong with `value` for this variable, or null when it fits. */
export function problemWithValue(entry: VariableSchemaEntry, value: unknown): string | null {
  switch (entry.type) {
    case 'string':
      return typeof value === 'string' ? null : `must be a string (variable type "string")`;
    case 'image': {
      const shape = 'must be an image object {"url": string, "width": number, "height": number}';
      if (!isPlainObject(value)) return shape;
      if (typeof value.url !== 'string' || value.url.length === 0) return `${shape}: "url" is missing or not a string`;
      if (typeof value.width !== 'number' || !Number.isFinite(value.width)) return `${shape}: "width" is missing or not a number`;
      if (typeof value.height !== 'number' || !Number.isFinite(value.height)) return `${shape}: "height" is missing or not a number`;
      return null;
    }
    case 'action': {
      const shape = 'must be an action object {"type": "web"|"custom", "data": string}';
      if (!isPlainObject(value)) return shape;
      if (typeof value.type !== 'string' || !ACTION_TYPES.includes(value.type)) return `${shape}: "type" must be "web" or "custom"`;
      if (typeof value.data !== 'string') return `${shape}: "data" is missing or not a string`;
      return null;
    }
  }
}

/**
 * Every problem of `values` against `schema`, keyed by `${prefix}.${key}`: required
 * variables missing, undeclared variables, values of the wrong shape. Empty when valid.
 */
export function checkVariables(schema: VariableSchemaEntry[], values: Record<string, unknown>, prefix: string): ErrorDetails {
  const details: ErrorDetails = {};
  const declared = new Map(schema.map((e) => [e.key, e]));
  for (const entry of schema) {
    const value = values[entry.key];
    if (value === undefined || value === null) {
      if (entry.required) details[`${prefix}.${entry.key}`] = `is required by the template (type "${entry.type}")`;
      continue;
    }
    const problem = problemWithValue(entry, value);
    if (problem) details[`${prefix}.${entry.key}`] = problem;
  }
  for (const key of Object.keys(values)) {
    if (!declared.has(key)) details[`${prefix}.${key}`] = 'is not declared in the template\'s variableSchema';
  }
  return details;
}

/** The text a value contributes to content: strings as is, image → url, action → data. */
export function valueAsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isPlainObject(value)) {
    if (typeof value.url === 'string') return value.url;
    if (typeof value.data === 'string') return value.data;
  }
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Replaces `{{key}}` in every string of `content`; unresolved placeholders stay literally. */
export function renderContent(content: unknown, values: Record<string, unknown>): unknown {
  if (typeof content === 'string') {
    return content.replace(PLACEHOLDER, (whole, key: string) =>
      Object.hasOwn(values, key) && values[key] !== undefined && values[key] !== null ? valueAsText(values[key]) : whole,
    );
  }
  if (Array.isArray(content)) return content.map((item) => renderContent(item, values));
  if (isPlainObject(content)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(content)) out[k] = renderContent(v, values);
    return out;
  }
  return content;
}
