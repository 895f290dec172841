/**
 * "A JSON object": not null, not an array. One test for the schemas that accept free-form
 * objects and for the domain code that walks them, and the words for a JSON value's kind.
 */
import { z } from 'zod';

export const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value's kind in words, for messages that must not print the value: "an object", "a string", "null". */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * A free-form object, kept as parsed: a copying record schema would turn an own "__proto__"
 * key into a prototype and hide it from later checks (undeclared variables, say). Declared an
 * open map (any key, any value): a bare `type: object` reads to client generators as an object
 * with no keys (`Record<string, never>`), which refuses `variables: { customer: 'Ada' }`.
 */
export const jsonObject = (error: string) =>
  z.custom<Record<string, unknown>>(isJsonObject, { error }).meta({ type: 'object', additionalProperties: {} });
