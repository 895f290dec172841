/**
 * Checks an answer of the live service (proxy mode, docs/running.md#proxy-mode) against the
 * emulator's own OpenAPI document: the operation by method and path template, the status
 * among those it describes, the headers it names, and the JSON body against the zod schema
 * the document is built from for that status. Each problem is one line, `JSON path: what was
 * expected`. A field the document does not name is not one: the zod schemas let extra keys
 * through, as the emulator's own clients do.
 */
import type { z } from 'zod';
import { ERROR_CODES } from '../domain/errors.js';
import { errorEnvelopeSchema } from '../schemas/responses.js';
import { errorsOf, RESOURCES } from './document.js';
import type { Operation } from './operation.js';

/** An answer as the proxy read it. */
export interface CheckedAnswer {
  method: string;
  /** The request path in its `/api/…` form. */
  path: string;
  status: number;
  /** A response header's value (any case), or null when absent. */
  header(name: string): string | null;
  body: string;
}

/** Lines kept per answer: a list answer of the wrong shape would otherwise name every item. */
const MAX_VIOLATIONS = 20;

interface Route {
  op: Operation;
  pattern: RegExp;
  /** Literal segments win over parameters (`/channels/availability` before `/channels/{id}`). */
  params: number;
  /** The error envelope each error status allows, with that status's codes. */
  errors: Map<number, z.ZodType>;
}

const envelopeOf = (codes: readonly string[]) => errorEnvelopeSchema(codes as [string, ...string[]]);

function apiRoutes(): Route[] {
  const routes: Route[] = [];
  for (const resource of RESOURCES) {
    if (resource.control === true) continue;
    for (const op of resource.operations) {
      const source = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      const errors = new Map([...errorsOf(op, false)].map(([status, codes]) => [status, envelopeOf(codes)]));
      routes.push({ op, pattern: new RegExp(`^${source}/?$`), params: (op.path.match(/\{/g) ?? []).length, errors });
    }
  }
  return routes.sort((a, b) => a.params - b.params);
}

/** `["items", 0, "name"]` → `$.items[0].name`. */
function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

const isJsonType = (type: string | null) => type !== null && /^application\/([\w.+-]*\+)?json\b/i.test(type.trim());

function bodyViolations(schema: z.ZodType, answer: CheckedAnswer): string[] {
  const type = answer.header('content-type');
  if (!isJsonType(type)) return [`content-type: expected application/json, got ${type ?? 'none'}`];
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch {
    return ['$: expected a JSON body, got text that is not JSON'];
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map(
    (issue) => `${jsonPath(issue.path)}: ${issue.message.replace(/^Invalid (input|option): /, '')}`,
  );
}

function violationsOf(routes: Route[], answer: CheckedAnswer, anyError: z.ZodType): string[] {
  // HEAD is answered as the GET of the same path would be, without the body.
  const head = answer.method.toUpperCase() === 'HEAD';
  const method = head ? 'get' : answer.method.toLowerCase();
  const route = routes.find((r) => r.op.method === method && r.pattern.test(answer.path));
  const where = `${answer.method.toUpperCase()} ${route?.op.path ?? answer.path}`;
  // A route the document does not have: the live 404/405 is right when it is the error envelope.
  if (route === undefined) {
    if (answer.status < 400)
      return [`${where}: no operation of the document describes this request (answered ${answer.status})`];
    return head ? [] : bodyViolations(anyError, answer);
  }
  const success = route.op.responses[answer.status];
  const error = route.errors.get(answer.status);
  if (success === undefined && error === undefined) {
    const described = [...Object.keys(route.op.responses), ...route.errors.keys()].join(', ');
    return [`status: expected one of ${described} for ${where}, got ${answer.status}`];
  }
  const missing = Object.keys(success?.headers ?? {})
    .filter((name) => answer.header(name) === null)
    .map((name) => `header ${name}: expected on a ${answer.status} of ${where}, missing`);
  const schema = success ? success.schema : error;
  return schema === undefined || head ? missing : [...missing, ...bodyViolations(schema, answer)];
}

/** The checker of one emulator: the routes are read from the document's operations once. */
export function createAnswerCheck(): (answer: CheckedAnswer) => string[] {
  const routes = apiRoutes();
  const anyError = envelopeOf(ERROR_CODES);
  return (answer) => {
    const all = violationsOf(routes, answer, anyError);
    if (all.length <= MAX_VIOLATIONS) return all;
    return [...all.slice(0, MAX_VIOLATIONS), `… and ${all.length - MAX_VIOLATIONS} more`];
  };
}
