/**
 * The fault kinds of a scenario rule (docs/reference.md#scenarios `fault`), one entry each:
 * the file field that names it, its level (the request's answer, or each delivery), whether
 * it is final (it decides the outcome: at most one final kind per rule, and later rules are
 * not consulted), how it explains itself, and the fault it makes. The scenario file schema
 * (which fields are exclusive), the engine (which rules decide a request, which a delivery)
 * and the HTTP adapter (how a request fault is answered) all read this table. Adding a kind
 * is one entry here, its field in the file schema, and its test.
 */
import type { ApiError, ErrorCode } from '../domain/errors.js';
import { injectedError, injectedRateLimit } from '../domain/error-messages.js';
import type { FaultKindInfo, ScenarioFault } from '../schemas/scenario-file.js';

/**
 * X-RateLimit-Limit when the rule gives none: the real service's core-operations limit per
 * minute (docs/fidelity.md#rate-limits).
 */
const DEFAULT_RATE_LIMIT = 10_000;

/**
 * The three ways a request fault can end a request, implemented once by the transport (the
 * HTTP adapter): fail with the envelope, answer as scripted, or drop the connection.
 */
export interface FaultResponder<R> {
  fail(error: ApiError): R;
  /** A scripted answer, sent as given (no envelope). `body` null: no body. */
  answer(status: number, body: string | null, headers: Record<string, string>): R;
  drop(): R;
}

/** A request-level fault, ready to apply; `label` names the rule that injected it. */
export interface RequestFault {
  /** The file field of its kind. */
  kind: FaultField;
  apply<R>(responder: FaultResponder<R>, label: string, nowMs: number): R;
}

interface FaultKind extends FaultKindInfo {
  explain(fault: ScenarioFault): string;
  /** The request fault this rule makes; only for final request-level kinds. */
  toFault?(fault: ScenarioFault): RequestFault['apply'];
}

/** Statuses whose answers carry no body (a scripted body is not sent with them). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

export const FAULT_KINDS = {
  delayMs: { level: 'request', final: false, explain: (f) => `wait ${f.delayMs} ms` },
  error: {
    level: 'request',
    final: true,
    explain: (f) => `fail with ${f.error}`,
    toFault: (f) => (responder, label) => responder.fail(injectedError(f.error as ErrorCode, label, f.message)),
  },
  status: {
    level: 'request',
    final: true,
    explain: (f) => `answer HTTP ${f.status} (raw body)`,
    toFault: (f) => {
      // A raw answer is sent as given (no envelope): that is its point. Null-body statuses get no body.
      const status = f.status!;
      const empty = f.body === undefined || f.body === null || NULL_BODY_STATUSES.has(status);
      const text = empty ? null : typeof f.body === 'string' ? f.body : JSON.stringify(f.body);
      const json = !empty && typeof f.body !== 'string';
      const headers = json ? { 'content-type': 'application/json', ...f.headers } : (f.headers ?? {});
      return (responder) => responder.answer(status, text, headers);
    },
  },
  rateLimit: {
    level: 'request',
    final: true,
    explain: (f) => `answer 429 ERR_TOO_MANY_REQUESTS (retry after ${f.rateLimit!.retryAfterSec} s)`,
    toFault: (f) => {
      const { retryAfterSec } = f.rateLimit!;
      const limit = f.rateLimit!.limit ?? DEFAULT_RATE_LIMIT;
      return (responder, label, nowMs) =>
        responder.fail(injectedRateLimit(label, retryAfterSec, limit, Math.ceil(nowMs / 1000) + retryAfterSec));
    },
  },
  drop: {
    level: 'request',
    final: true,
    explain: () => 'drop the connection without an answer',
    toFault: () => (responder) => responder.drop(),
  },
  failDelivery: {
    level: 'delivery',
    final: true,
    explain: (f) => `fail matching deliveries ("${f.failDelivery}")`,
  },
} as const satisfies Record<string, FaultKind>;

export type FaultField = keyof typeof FAULT_KINDS;

const KINDS = Object.entries(FAULT_KINDS) as [FaultField, FaultKind][];

const present = (fault: ScenarioFault, field: FaultField) => fault[field] !== undefined;

export function explainFault(fault: ScenarioFault): string {
  const parts = KINDS.filter(([field]) => present(fault, field)).map(([, kind]) => kind.explain(fault));
  if (parts.length === 1 && fault.delayMs !== undefined) return `${parts[0]}, then answer normally`;
  return parts.join(', then ');
}

/** Whether the rule acts on deliveries (per recipient) rather than on the request's answer. */
export const isDeliveryFault = (fault: ScenarioFault): boolean =>
  KINDS.some(([field, kind]) => kind.level === 'delivery' && present(fault, field));

/** The final request-level fault of a rule, or null for a delay-only (or delivery) rule. */
export function toRequestFault(fault: ScenarioFault): RequestFault | null {
  for (const [field, kind] of KINDS)
    if (kind.toFault && present(fault, field)) return { kind: field, apply: kind.toFault(fault) };
  return null;
}
