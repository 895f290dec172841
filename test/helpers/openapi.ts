/**
 * Checks every answer the tests get (through `call()` / `request()`) against the committed
 * openapi.json: the operation is looked up by method + path template, the status must be
 * one it describes, and a JSON body must match that status's schema. An answer the
 * document does not describe fails the test that produced it. Answers scripted by a fault
 * scenario (a raw status or body, or any error code) are exempt: the document cannot know them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { EmulatorApp } from '../../src/index.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  /** Literal segments win over parameters (`/channels/availability` before `/channels/{id}`). */
  params: number;
}

type Json = Record<string, any>;

export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi.json', import.meta.url));
const API_BASE = '/v3/business-messaging';

let state: { doc: Json; ajv: Ajv2020; routes: Route[] } | undefined;
const validators = new Map<string, ValidateFunction>();

function load() {
  if (state) return state;
  const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
    for (const method of Object.keys(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      routes.push({
        method,
        template,
        pattern: new RegExp(`^${source}$`),
        params: (template.match(/\{/g) ?? []).length,
      });
    }
  }
  routes.sort((a, b) => a.params - b.params);
  return (state = { doc, ajv, routes });
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function validatorAt(path: string): ValidateFunction {
  let validate = validators.get(path);
  if (!validate) {
    const { ajv } = load();
    validate = ajv.getSchema(`openapi.json#/${path}`);
    if (!validate) throw new Error(`openapi.json has no schema at ${path}`);
    validators.set(path, validate);
  }
  return validate;
}

/** The committed document, parsed once for every test that reads it. */
export const openApiDocument = (): Json => load().doc;

/** The operation's path template for a request path (either server's base path), or null. */
export function findOperation(method: string, rawPath: string): { template: string; path: string } | null {
  // The path as the router sees it: dot segments (also percent-encoded ones) resolved, as URL parsing does.
  let path = new URL(rawPath.split(/[?#]/)[0]!, 'http://localhost').pathname;
  if (path.startsWith(`${API_BASE}/api/`) || path === `${API_BASE}/api`) path = path.slice(API_BASE.length);
  const m = method.toLowerCase();
  const route = load().routes.find((r) => r.method === m && r.pattern.test(path));
  return route ? { template: route.template, path } : null;
}

/** True when a fault scenario shaped this answer (the journal names the rule). */
function scripted(app: EmulatorApp, method: string, rawPath: string, status: number): boolean {
  const path = rawPath.split(/[?#]/)[0]!;
  const store = app.emulator.store;
  const { total } = store.queryJournal({}, { offset: 0, limit: 0 });
  const recent = store.queryJournal({}, { offset: Math.max(0, total - 50), limit: 50 }).items;
  return recent.some((e) => e.method === method && e.path === path && e.status === status && e.scenario !== null);
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when it is not JSON. */
  body: unknown;
}

/** Throws when the document does not describe this answer. */
export function checkAnswer(app: EmulatorApp, method: string, rawPath: string, answer: Answer): void {
  const { doc } = load();
  const where = `${method.toUpperCase()} ${rawPath} → ${answer.status}`;
  const op = findOperation(method, rawPath);
  const problems = (validate: ValidateFunction) =>
    (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`)
      .join('; ');
  // The web inspector's page, files and browser redirect are not API operations.
  if (!op && /^\/__(\/|$)/.test(new URL(rawPath, 'http://localhost').pathname)) return;
  if (!op) {
    // No operation: a route the emulator does not have (404) or a method it does not allow (405).
    const validate = validatorAt(pointer('components', 'schemas', 'Error'));
    if (answer.status >= 400 && validate(answer.body)) return;
    throw new Error(`${where}: no operation of openapi.json describes this request (npm run openapi?)`);
  }
  const operation = doc.paths[op.template][method.toLowerCase()] as Json;
  const response = operation.responses[String(answer.status)] as Json | undefined;
  if (!response) {
    if (scripted(app, method.toUpperCase(), rawPath, answer.status)) return;
    throw new Error(
      `${where}: openapi.json describes no ${answer.status} for ${method.toUpperCase()} ${op.template} ` +
        `(it lists ${Object.keys(operation.responses).join(', ')}); add it to src/openapi/ and run npm run openapi`,
    );
  }
  for (const name of Object.keys(response.headers ?? {})) {
    if (!answer.headers.has(name)) throw new Error(`${where}: header ${name} is described but missing`);
  }
  if (!response.content?.['application/json']) return;
  const validate = validatorAt(
    pointer('paths', op.template, method.toLowerCase(), 'responses', String(answer.status), 'content') +
      '/application~1json/schema',
  );
  if (validate(answer.body)) return;
  const why = problems(validate);
  if (scripted(app, method.toUpperCase(), rawPath, answer.status)) return;
  throw new Error(
    `${where}: the body does not match openapi.json (${op.template} ${answer.status}): ${why}\n` +
      `body: ${JSON.stringify(answer.body).slice(0, 500)}`,
  );
}
