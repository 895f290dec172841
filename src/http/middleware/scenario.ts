/**
 * Adapter between API requests and the scenario engine (CONTRACT §7): collects the
 * request's facts, asks the engine, applies delay/error/raw/rate-limit/drop faults, and
 * hands the route the delivery-fault policy of this request (global + header scenarios).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { badRequest } from '../../domain/errors.js';
import type { AppliedRuleInfo, Decision } from '../../scenario-engine/engine.js';
import { faultError } from '../../scenario-engine/faults.js';
import { normalisePath, type RequestFacts } from '../../scenario-engine/match.js';
import type { AppEnv } from '../context.js';

export const SCENARIO_HEADER = 'x-emulator-scenario';

/** Thrown by a drop under `app.request()` (no socket to destroy), so a test can assert on it. */
export class ConnectionDropped extends Error {
  constructor(label: string) {
    super(`Connection dropped by scenario ${label}.`);
    this.name = 'ConnectionDropped';
  }
}

/** The drop seam: on Node destroys the socket (the 499 is never sent, only journaled); in-process throws. */
function dropConnection(c: Context<AppEnv>, label: string): Response {
  const incoming = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming;
  if (!incoming?.socket) throw new ConnectionDropped(label);
  incoming.socket.destroy();
  return new Response(null, { status: 499 });
}

const NO_DECISION: Decision = { applied: [], delayMs: 0, fault: null };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function headerScenarios(c: Context<AppEnv>): string[] {
  const header = c.req.header(SCENARIO_HEADER);
  if (header === undefined) return [];
  const names = header
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = c.get('emulator').scenarios.unknown(names);
  if (unknown.length) {
    throw badRequest(
      `Header ${SCENARIO_HEADER} names unknown scenario(s) ${unknown.map((n) => `"${n}"`).join(', ')}; GET /__scenarios lists the loaded ones.`,
      {
        [SCENARIO_HEADER]: `unknown scenario "${unknown[0]}"`,
      },
    );
  }
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

/** Lenient: a body that is not JSON (or a form without the field) just leaves the facts empty. */
async function readBodyFacts(
  c: Context<AppEnv>,
): Promise<{ body: unknown; form: Record<string, unknown> | undefined }> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  try {
    if (/^application\/([\w.+-]*\+)?json\b/.test(type))
      return { body: JSON.parse(await c.req.text()), form: undefined };
    if (type.startsWith('multipart/form-data'))
      return { body: undefined, form: (await c.req.parseBody()) as Record<string, unknown> };
  } catch {
    /* not readable: body matchers fail, the route reports the problem */
  }
  return { body: undefined, form: undefined };
}

async function requestFacts(c: Context<AppEnv>, withBody: boolean): Promise<RequestFacts> {
  const { body, form } = withBody ? await readBodyFacts(c) : { body: undefined, form: undefined };
  return factsOf(c, body, form);
}

function factsOf(c: Context<AppEnv>, body: unknown, form: Record<string, unknown> | undefined): RequestFacts {
  const path = normalisePath(c.req.path);
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const template =
    record.template !== null && typeof record.template === 'object' ? (record.template as Record<string, unknown>) : {};
  const fromPath = /^\/api\/campaigns\/([^/]+)/.exec(path)?.[1];
  let headers: Record<string, string> | undefined;
  return {
    method: c.req.method,
    path,
    appId: c.get('app')?.appId ?? null,
    // Copied only when a header matcher asks: most requests never need it (bench/).
    get headers() {
      return (headers ??= Object.fromEntries(c.req.raw.headers));
    },
    body,
    templateKey: asString(template.key) ?? asString(record.templateKey) ?? asString(record.templateId),
    campaignId:
      (fromPath && fromPath !== 'upload' ? safeDecode(fromPath) : null) ??
      asString(record.campaignId) ??
      asString(form?.campaignId),
  };
}

export function scenarios(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const emulator = c.get('emulator');
    const names = headerScenarios(c);
    // Every rule that applies is journaled once: request rules now, failDelivery rules as the route fires them.
    let applied: AppliedRuleInfo[] | undefined;
    const onDeliveryRule = (info: AppliedRuleInfo) => {
      applied ??= [];
      if (!applied.some((a) => a.index === info.index && a.scenario === info.scenario)) applied.push(info);
    };
    // Nothing active and nothing named: no rule can fire now, so no facts are gathered. The
    // delivery policy still reads the active set when a scheduled campaign runs later, and
    // then builds the facts on demand.
    const idle = names.length === 0 && !emulator.scenarios.hasActive();
    let facts: RequestFacts | undefined = idle ? undefined : await requestFacts(c, emulator.scenarios.needsBody(names));
    const decision = facts ? emulator.scenarios.decide(facts, names) : NO_DECISION;
    c.set(
      'deliveryFaults',
      emulator.scenarios.deliveryFaults(names, () => (facts ??= factsOf(c, undefined, undefined)), onDeliveryRule),
    );
    if (decision.applied.length > 0) {
      applied = [...decision.applied];
      c.set('appliedRules', applied);
    }
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    const fault = decision.fault;
    if (!fault) {
      try {
        await next();
      } finally {
        if (applied) c.set('appliedRules', applied);
      }
      return;
    }
    const decider = decision.applied.at(-1)!;
    const label = `"${decider.scenario}" ${decider.rule}`;
    switch (fault.kind) {
      case 'drop':
        return dropConnection(c, label);
      case 'raw': {
        // A raw answer is sent as given (no envelope): that is its point. Null-body statuses get no body.
        const empty = fault.body === null || [204, 205, 304].includes(fault.status);
        const body = empty ? null : typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
        const json = !empty && typeof fault.body !== 'string';
        return new Response(body, {
          status: fault.status,
          headers: json ? { 'content-type': 'application/json', ...fault.headers } : fault.headers,
        });
      }
      default:
        throw faultError(fault, label, emulator.clock.now());
    }
  };
}
