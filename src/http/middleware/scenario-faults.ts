/**
 * Adapter between API requests and the scenario engine (docs/reference.md#scenarios): takes a snapshot of
 * the request's facts, asks the engine for this request's scope (engine.forRequest), puts
 * it on the context for the route (its delivery-fault policy) and the journal (its applied
 * rules), and applies the delay and the final fault. What a fault does is the fault table's
 * (scenario-engine/fault-kinds.ts); this adapter only says how to fail, answer and drop in HTTP.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import { Buffer } from 'node:buffer';
import { badRequest } from '../../domain/errors.js';
import type { AppClockSource } from '../../domain/ports.js';
import type { RequestScope, ScenarioEngine } from '../../scenario-engine/engine.js';
import type { FaultResponder } from '../../scenario-engine/fault-kinds.js';
import { normalisePath } from '../../domain/api-path.js';
import type { RequestFacts } from '../../scenario-engine/match.js';
import type { AppEnv } from '../context.js';
import { plainHeaders, requestHeader } from '../plain-headers.js';
import { readMultipart } from '../multipart.js';
import { answerText } from '../answer.js';
import { isJsonContentType } from '../validate.js';
import { limitOf, type Limits } from './body-limit.js';
import { readBodyBytes, readBodyText } from '../request-body.js';

export const SCENARIO_HEADER = 'x-emulator-scenario';

/** Thrown by a drop under `app.request()` (no socket to destroy), so a test can assert on it. */
export class ConnectionDropped extends Error {
  constructor(label: string) {
    super(`Connection dropped by scenario ${label}.`);
    this.name = 'ConnectionDropped';
  }
}

/** How a request fault ends an HTTP request (the fault table says which and with what). */
function httpResponder(c: Context<AppEnv>, label: string): FaultResponder<Response> {
  return {
    fail(error) {
      throw error; // to the one error renderer
    },
    answer: (status, body, headers) => answerText(c, body, status, headers),
    // The transport's drop seam (request-seams.ts): the 499 is never sent, only journaled. In
    // process there is no socket: the marker error reaches the caller of app.request().
    drop() {
      if (!c.env?.dropConnection) throw new ConnectionDropped(label);
      c.env.dropConnection();
      return new Response(null, { status: 499 });
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function headerScenarios(c: Context<AppEnv>, engine: ScenarioEngine): string[] {
  const header = requestHeader(c, SCENARIO_HEADER);
  if (header === undefined) return [];
  const names = header
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  engine.requireLoaded(names, (unknown) =>
    badRequest(
      `Header ${SCENARIO_HEADER} names unknown scenario(s) ${unknown.map((n) => `"${n}"`).join(', ')}; GET ` +
        `/__scenarios lists the loaded ones.`,
      { [SCENARIO_HEADER]: `unknown scenario "${unknown[0]}"` },
    ),
  );
  return names;
}

/** A malformed %-escape in a path is the route's 404 to give, not a reason for a 500 here. */
const safeDecode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const asString = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** What a rule may match in the body: the JSON value, or an upload form's text fields. */
interface BodyFacts {
  body: unknown;
  form: Record<string, string> | undefined;
}

const NO_BODY_FACTS: BodyFacts = { body: undefined, form: undefined };

/**
 * A form's text fields, a field sent twice by its last part (a file part, left out, puts aside
 * a text field sent before it under the same name).
 */
async function textFields(bytes: Uint8Array, type: string): Promise<Record<string, string>> {
  const fields = new Map<string, Uint8Array[]>();
  await readMultipart(type, [bytes], (name, filename) => {
    fields.delete(name);
    if (filename !== null) return null;
    const pieces: Uint8Array[] = [];
    fields.set(name, pieces);
    return (data) => void pieces.push(data); // views into `bytes`, which outlives them
  });
  const decoder = new TextDecoder();
  return Object.fromEntries([...fields].map(([name, pieces]) => [name, decoder.decode(Buffer.concat(pieces))]));
}

/**
 * Lenient: a body that is not JSON (or a form without the field) just leaves the facts empty,
 * and the route reports the problem. A form is read within its limit, as the route would read
 * it: a chunked upload declares no length to refuse it by.
 */
async function readBodyFacts(c: Context<AppEnv>, limits: Limits): Promise<BodyFacts> {
  const type = (requestHeader(c, 'content-type') ?? '').toLowerCase();
  if (isJsonContentType(type)) {
    try {
      return { body: JSON.parse(await readBodyText(c)), form: undefined };
    } catch {
      return NO_BODY_FACTS;
    }
  }
  if (!type.startsWith('multipart/form-data')) return NO_BODY_FACTS;
  const bytes = await readBodyBytes(c, limitOf(c, limits));
  try {
    return { body: undefined, form: await textFields(bytes, type) };
  } catch {
    return NO_BODY_FACTS;
  }
}

/**
 * A snapshot of the request as plain data: what the engine decides on now, and all that a
 * scheduled campaign's delivery-fault policy keeps of the request (never the context).
 */
function snapshotFacts(c: Context<AppEnv>, { body, form }: BodyFacts): RequestFacts {
  const path = normalisePath(c.req.path);
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const template =
    record.template !== null && typeof record.template === 'object' ? (record.template as Record<string, unknown>) : {};
  const fromPath = /^\/api\/campaigns\/([^/]+)/.exec(path)?.[1];
  return {
    method: c.req.method,
    path,
    appId: c.get('appId') ?? null,
    headers: plainHeaders(c),
    body,
    templateKey: asString(template.key) ?? asString(record.templateKey) ?? asString(record.templateId),
    campaignId:
      (fromPath && fromPath !== 'upload' ? safeDecode(fromPath) : null) ??
      asString(record.campaignId) ??
      asString(form?.campaignId),
  };
}

export function scenarioFaults(
  engine: ScenarioEngine,
  clocks: AppClockSource,
  limits: Limits,
): MiddlewareHandler<AppEnv> {
  /** The scope is on the context; applies its delay and fault, if any, then the route. */
  async function apply(c: Context<AppEnv>, next: Next, { decision }: RequestScope): Promise<Response | void> {
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    const fault = decision.fault;
    if (!fault) return next();
    const decider = decision.applied.at(-1)!;
    const label = `"${decider.scenario}" ${decider.rule}`;
    // The app's own clock when it has one, as every other instant of the app's answers.
    return fault.apply(httpResponder(c, label), label, clocks.clockFor(c.get('appId')).now());
  }

  function decide(c: Context<AppEnv>, facts: RequestFacts, names: string[]): RequestScope {
    const scope = engine.forRequest(facts, names);
    c.set('scenarioScope', scope);
    return scope;
  }

  // Not async: with no rule matching on the body, the scope is decided synchronously and a
  // request without delay or fault goes straight to its route (no promise of its own).
  return (c, next) => {
    const names = headerScenarios(c, engine);
    // Nothing active and nothing named: no rule can fire now, so the body is not read. The
    // facts are still taken: a scheduled campaign's policy reads the active set when it runs.
    const appId = c.get('appId') ?? null;
    const idle = names.length === 0 && !engine.hasActive(appId);
    if (!idle && engine.needsBody(names, appId))
      return readBodyFacts(c, limits).then((read) => apply(c, next, decide(c, snapshotFacts(c, read), names)));
    const scope = decide(c, snapshotFacts(c, NO_BODY_FACTS), names);
    return scope.decision.delayMs > 0 || scope.decision.fault ? apply(c, next, scope) : next();
  };
}
