/**
 * Reads a JSON body strictly (content type, syntax) and checks it against a zod schema;
 * every failure becomes ERR_BAD_REQUEST with `details` keyed by field path.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest, type ErrorDetails } from '../domain/errors.js';
import { depthExceeds, MAX_JSON_DEPTH, mayBeTooDeep } from '../domain/json-depth.js';
import { didYouMean } from '../domain/did-you-mean.js';
import { issueDetails } from '../schemas/issues.js';
import type { AppEnv } from './context.js';
import { requestHeader } from './plain-headers.js';
import { readBodyText } from './request-body.js';

/** The keys an object schema names at `path` (through optional and nullable wrappers), or none. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let at: unknown = schema;
  for (let i = 0; ; i++) {
    while (typeof (at as { unwrap?: unknown }).unwrap === 'function') at = (at as { unwrap(): unknown }).unwrap();
    const shape = (at as { shape?: Record<string, unknown> }).shape;
    if (typeof shape !== 'object' || shape === null) return [];
    if (i === path.length) return Object.keys(shape);
    at = shape[String(path[i])];
    if (at === undefined) return [];
  }
}

/** An unknown key's detail with the key it most likely meant: `{"advance":1}` → `did you mean "advanceMs"?`. */
function withKeyHints(schema: z.ZodType, error: z.ZodError, details: ErrorDetails, prefix: string): ErrorDetails {
  for (const issue of error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)';
    const hint = didYouMean(issue.keys[0]!, keysAt(schema, issue.path));
    if (hint && details[field] !== undefined && !details[field].endsWith('?)')) details[field] += hint;
  }
  return details;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string, prefix = ''): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const details = withKeyHints(schema, result.error, issueDetails(result.error, prefix), prefix);
    const summary = Object.entries(details)
      .slice(0, 3)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ');
    throw badRequest(`Invalid ${what}: ${summary}`, details);
  }
  return result.data;
}

/** A JSON media type: application/json or application/<anything>+json, parameters allowed. */
export const isJsonContentType = (type: string): boolean => /^application\/([\w.+-]*\+)?json\b/i.test(type.trim());

/** Refuses a body that is not JSON by its content type (checked before the body is read). */
export function requireJsonContentType(type: string): void {
  if (!isJsonContentType(type)) {
    throw badRequest(`Content-Type must be application/json (got "${type || 'none'}").`, {
      'content-type': 'must be application/json',
    });
  }
}

export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  requireJsonContentType(requestHeader(c, 'content-type') ?? '');
  return parseJsonText(await readBodyText(c));
}

/** A request body's text as a JSON value: refused when empty, malformed or nested too deep. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '')
    throw badRequest('The request body is empty; send a JSON object.', { body: 'must be a JSON object' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The request body is not valid JSON: ${(error as Error).message}`, { body: 'malformed JSON' });
  }
  // Stored records must serialise (json-depth.ts); short bodies (most sends) need no walk.
  if (mayBeTooDeep(text) && depthExceeds(value)) {
    throw badRequest(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`, {
      body: `nested more than ${MAX_JSON_DEPTH} levels`,
    });
  }
  return value;
}

export async function readJsonBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  return parseWith(schema, await readJson(c), 'request body');
}

/** A query parameter or form field sent twice: refused rather than picking one (a typo must not pass). */
export const GIVEN_TWICE = 'is given more than once';

interface QueryOptions {
  /** Parameters for which an empty value is an error rather than "absent" (a destructive scope like `appId`). */
  emptyIsError?: readonly string[];
}

/**
 * The query string against an object schema, the same way on every endpoint that uses it:
 * an empty value (`status=`) means the parameter is absent; a parameter the schema does not
 * name, or one given twice, is a 400 naming it (a typo must not silently match everything).
 */
export function parseQuery<S extends z.ZodObject>(c: Context, schema: S, options: QueryOptions = {}): z.infer<S> {
  const allowed = Object.keys(schema.shape);
  const values: Record<string, string> = {};
  const details: ErrorDetails = {};
  const at = c.req.url.indexOf('?');
  const params = at < 0 ? [] : new URLSearchParams(c.req.url.slice(at + 1).split('#')[0]);
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (!allowed.includes(name)) details[name] ??= 'is not a parameter of this endpoint';
    else if (seen.has(name)) details[name] = GIVEN_TWICE;
    else if (value === '' && options.emptyIsError?.includes(name)) details[name] = 'must not be empty';
    else if (value !== '') values[name] = value;
    seen.add(name);
  }
  const problems = Object.keys(details);
  if (problems.length > 0) {
    const names = problems.map((n) => `query parameter "${n}" ${details[n]}`).join('; ');
    const accepted = allowed.length ? `takes ${allowed.join(', ')}` : 'takes no query parameters';
    throw badRequest(`Bad query: ${names}. ${c.req.method} ${c.req.path} ${accepted}.`, details);
  }
  return parseWith(schema, values, 'query');
}
