/**
 * Proxy mode (docs/running.md#proxy-mode): one emulator's way to the live service. It forwards
 * a call, checks the live answer against the emulator's OpenAPI document, says what happened
 * as the journal keeps it (`upstream` on the entry), and counts it for /__health. No HTTP
 * framework here: the route (http/api/proxy.ts) hands in plain data and sends back what it gets.
 */
import type { Stopwatch } from '../platform/clock.js';
import type { UpstreamCall } from '../schemas/records.js';
import type { UpstreamStats } from '../schemas/responses.js';
import { createAnswerCheck } from '../openapi/answer-check.js';
import { normalisePath } from '../domain/api-path.js';
import { forwardCall } from './forward.js';
import { apiPathOf, upstreamTarget, type NoTarget } from './target.js';

export interface UpstreamRequest {
  method: string;
  /** The path as sent (either base path), percent-escapes as they were. */
  path: string;
  /** The raw query string, without its `?`. */
  query: string;
  /** The `appid` header's app (null without one): it names the host with `--upstream-region`. */
  appId: string | null;
  /** The caller's headers, names in lower case. */
  headers: Record<string, string>;
  body: Uint8Array | null;
}

export type UpstreamOutcome =
  /** The live answer, to send back as it is; `call` is what the journal keeps. */
  | { kind: 'answered'; status: number; headers: [string, string][]; body: Uint8Array; call: UpstreamCall }
  /** No answer came (refused connection, timeout); `call.error` says why. */
  | { kind: 'failed'; call: UpstreamCall }
  /** No URL could be built for the call (`--upstream-region` without a usable app id): nothing was sent. */
  | { kind: 'no-target'; why: NoTarget };

export interface Upstream {
  forward(request: UpstreamRequest): Promise<UpstreamOutcome>;
  stats(): UpstreamStats;
}

export interface UpstreamOptions {
  upstream?: string;
  upstreamRegion?: string;
  upstreamTimeoutMs: number;
}

const decoder = new TextDecoder();

/** The proxy of one emulator, or null when its options name no upstream. */
export function createUpstream(options: UpstreamOptions, stopwatch: Stopwatch): Upstream | null {
  const target = upstreamTarget(options);
  if (target === null) return null;
  const check = createAnswerCheck();
  const counts = { forwarded: 0, failed: 0, answersWithViolations: 0, violations: 0 };
  const timeoutMs = options.upstreamTimeoutMs;
  const elapsed = (started: number) => Math.round((stopwatch() - started) * 100) / 100;

  return {
    async forward(request) {
      const url = target.urlFor(request.appId, apiPathOf(request.path), request.query);
      if (url === 'no-app' || url === 'app-not-a-host') return { kind: 'no-target', why: url };
      const started = stopwatch();
      counts.forwarded++;
      const result = await forwardCall({ ...request, url, timeoutMs });
      const durationMs = elapsed(started);
      if (!result.answered) {
        counts.failed++;
        return { kind: 'failed', call: { url, status: null, durationMs, violations: [], error: result.reason } };
      }
      const byName = new Map(result.headers.map(([name, value]) => [name, value]));
      const violations = check({
        method: request.method,
        path: normalisePath(request.path),
        status: result.status,
        header: (name) => byName.get(name.toLowerCase()) ?? null,
        body: decoder.decode(result.body),
      });
      if (violations.length > 0) counts.answersWithViolations++;
      counts.violations += violations.length;
      const call: UpstreamCall = { url, status: result.status, durationMs, violations, error: null };
      return { kind: 'answered', status: result.status, headers: result.headers, body: result.body, call };
    },
    stats: () => ({ target: target.shown, timeoutMs, ...counts }),
  };
}
