/**
 * Fault kinds of a scenario rule (docs/reference.md#scenarios `fault`): what each does, which are final
 * (decide the answer) and which chain (delay), and how each explains itself.
 */
import { ApiError, type ErrorCode } from '../domain/errors.js';
import type { ScenarioFault } from '../schemas/scenario-file.js';

/** A request-level fault the HTTP adapter applies. failDelivery is not one: it acts per recipient. */
export type RequestFault =
  | { kind: 'error'; code: ErrorCode; message: string | undefined }
  | { kind: 'raw'; status: number; body: unknown; headers: Record<string, string> }
  | { kind: 'rateLimit'; retryAfterSec: number; limit: number }
  | { kind: 'drop' };

/**
 * X-RateLimit-Limit when the rule gives none: the real service's core-operations limit per
 * minute (docs/fidelity.md#rate-limits).
 */
export const DEFAULT_RATE_LIMIT = 10_000;

interface FaultKind {
  /** Final kinds decide the answer, so later rules are not consulted. */
  final: boolean;
  present(fault: ScenarioFault): boolean;
  explain(fault: ScenarioFault): string;
}

export const FAULT_KINDS: Record<string, FaultKind> = {
  delayMs: { final: false, present: (f) => f.delayMs !== undefined, explain: (f) => `wait ${f.delayMs} ms` },
  error: { final: true, present: (f) => f.error !== undefined, explain: (f) => `fail with ${f.error}` },
  status: { final: true, present: (f) => f.status !== undefined, explain: (f) => `answer HTTP ${f.status} (raw body)` },
  rateLimit: {
    final: true,
    present: (f) => f.rateLimit !== undefined,
    explain: (f) => `answer 429 ERR_TOO_MANY_REQUESTS (retry after ${f.rateLimit!.retryAfterSec} s)`,
  },
  drop: { final: true, present: (f) => f.drop === true, explain: () => 'drop the connection without an answer' },
  failDelivery: {
    final: false,
    present: (f) => f.failDelivery !== undefined,
    explain: (f) => `fail matching deliveries ("${f.failDelivery}")`,
  },
};

export function explainFault(fault: ScenarioFault): string {
  const parts = Object.values(FAULT_KINDS)
    .filter((k) => k.present(fault))
    .map((k) => k.explain(fault));
  if (parts.length === 1 && fault.delayMs !== undefined) return `${parts[0]}, then answer normally`;
  return parts.join(', then ');
}

export const isDeliveryFault = (fault: ScenarioFault): boolean => fault.failDelivery !== undefined;

/** The final request-level fault of a rule, or null for a delay-only (or delivery) rule. */
export function toRequestFault(fault: ScenarioFault): RequestFault | null {
  if (fault.error !== undefined) return { kind: 'error', code: fault.error as ErrorCode, message: fault.message };
  if (fault.status !== undefined)
    return { kind: 'raw', status: fault.status, body: fault.body ?? null, headers: fault.headers ?? {} };
  if (fault.rateLimit !== undefined) {
    return {
      kind: 'rateLimit',
      retryAfterSec: fault.rateLimit.retryAfterSec,
      limit: fault.rateLimit.limit ?? DEFAULT_RATE_LIMIT,
    };
  }
  if (fault.drop) return { kind: 'drop' };
  return null;
}

/** The ApiError of an `error` or `rateLimit` fault; `label` says which scenario rule injected it. */
export function faultError(
  fault: RequestFault & { kind: 'error' | 'rateLimit' },
  label: string,
  nowMs: number,
): ApiError {
  if (fault.kind === 'error') {
    return new ApiError(fault.code, `Injected by scenario ${label}.`, fault.message ? { message: fault.message } : {});
  }
  return new ApiError(
    'ERR_TOO_MANY_REQUESTS',
    `Rate limit injected by scenario ${label}; retry after ${fault.retryAfterSec} s.`,
    {
      headers: {
        'Retry-After': String(fault.retryAfterSec),
        'X-RateLimit-Limit': String(fault.limit),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(Math.ceil(nowMs / 1000) + fault.retryAfterSec),
      },
    },
  );
}
