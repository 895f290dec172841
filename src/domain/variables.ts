/**
 * Template variables: checking values against a variableSchema (docs/reference.md#templates value
 * shapes) and rendering `{{key}}` placeholders in a template's content.
 */
import type { VariableSchemaEntry } from '../schemas/records.js';
import type { ErrorDetails } from './errors.js';
import { isJsonObject } from '../schemas/json-object.js';

const ACTION_TYPES = ['web', 'custom'];

/** What is wrong with `value` for this variable, or null when it fits. */
export function problemWithValue(entry: VariableSchemaEntry, value: unknown): string | null {
  switch (entry.type) {
    case 'string':
      return typeof value === 'string' ? null : `must be a string (variable type "string")`;
    case 'image': {
      const shape = 'must be an image object {"url": string, "width": number, "height": number}';
      if (!isJsonObject(value)) return shape;
      if (typeof value.url !== 'string' || value.url.length === 0) return `${shape}: "url" is missing or not a string`;
      if (typeof value.width !== 'number' || !Number.isFinite(value.width))
        return `${shape}: "width" is missing or not a number`;
      if (typeof value.height !== 'number' || !Number.isFinite(value.height))
        return `${shape}: "height" is missing or not a number`;
      return null;
    }
    case 'action': {
      const shape = 'must be an action object {"type": "web"|"custom", "data": string}';
      if (!isJsonObject(value)) return shape;
      if (typeof value.type !== 'string' || !ACTION_TYPES.includes(value.type))
        return `${shape}: "type" must be "web" or "custom"`;
      if (typeof value.data !== 'string') return `${shape}: "data" is missing or not a string`;
      return null;
    }
  }
}

/** The names of the variables `schema` declares. */
export const declaredKeys = (schema: VariableSchemaEntry[]): ReadonlySet<string> => new Set(schema.map((e) => e.key));

const UNDECLARED = "is not declared in the template's variableSchema";

/**
 * A check of variables against `schema`: every problem (required variables missing,
 * undeclared variables, values of the wrong shape) keyed by `${prefix}.${key}`, or by
 * `${prefix}.${member}.${key}` for the values of one member of a batch; undefined when the
 * values fit. Made once per send, and it builds keys and objects only for a problem, so a
 * batch with variables for each of 10,000 targets allocates nothing per target here.
 */
export function variablesChecker(
  schema: VariableSchemaEntry[],
  declared: ReadonlySet<string> = declaredKeys(schema),
): (values: Record<string, unknown>, prefix: string, member?: string) => ErrorDetails | undefined {
  return (values, prefix, member) => {
    let details: ErrorDetails | undefined;
    for (const entry of schema) {
      const value = values[entry.key];
      const problem =
        value === undefined || value === null
          ? entry.required
            ? `is required by the template (type "${entry.type}")`
            : null
          : problemWithValue(entry, value);
      if (problem) (details ??= {})[problemKey(prefix, member, entry.key)] = problem;
    }
    for (const key in values) {
      if (Object.hasOwn(values, key) && !declared.has(key))
        (details ??= {})[problemKey(prefix, member, key)] = UNDECLARED;
    }
    return details;
  };
}

const problemKey = (prefix: string, member: string | undefined, key: string) =>
  member === undefined ? `${prefix}.${key}` : `${prefix}.${member}.${key}`;

/** The text a value contributes to content: strings as is, image → url, action → data. */
export function valueAsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isJsonObject(value)) {
    if (typeof value.url === 'string') return value.url;
    if (typeof value.data === 'string') return value.data;
  }
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Replaces `{{key}}` in every string of `content`; unresolved placeholders stay literally. */
export function renderContent(content: unknown, values: Record<string, unknown>): unknown {
  return compileContent(content)(values);
}

type Render = (values: Record<string, unknown>) => unknown;

/**
 * `content` as a function of the values: the placeholders are found once, so a template
 * sent many times (compiled once per emulator, see deliveries.ts) is not re-scanned per send.
 */
export function compileContent(content: unknown): Render {
  if (typeof content === 'string') {
    // split with a capture group: text, key, text, key, …, text
    const parts = content.split(PLACEHOLDER);
    if (parts.length === 1) return () => content;
    const wholes = [...content.matchAll(PLACEHOLDER)].map((m) => m[0]);
    return (values) => {
      let out = parts[0] as string;
      for (let i = 1; i < parts.length; i += 2) {
        const key = parts[i] as string;
        const value = Object.hasOwn(values, key) ? values[key] : undefined;
        out +=
          (value !== undefined && value !== null ? valueAsText(value) : wholes[(i - 1) / 2]) + (parts[i + 1] as string);
      }
      return out;
    };
  }
  if (Array.isArray(content)) {
    const items = content.map(compileContent);
    return (values) => items.map((render) => render(values));
  }
  if (isJsonObject(content)) {
    const fields = Object.entries(content).map(([k, v]) => [k, compileContent(v)] as const);
    return (values) => {
      const out: Record<string, unknown> = {};
      for (const [k, render] of fields) out[k] = render(values);
      return out;
    };
  }
  return () => content;
}
