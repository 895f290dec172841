/**
 * Matchers of a scenario rule (docs/reference.md#scenarios `match`): each tests request facts and/or
 * delivery facts and can explain itself in words for GET /__scenarios and the journal.
 */
import { normalisePath } from '../domain/api-path.js';
import type { DeliveryFacts } from '../domain/ports.js';
import type { ScenarioMatch } from '../schemas/scenario-file.js';
import { glob, pathPattern, type Wildcard } from './wildcard.js';

/** What the HTTP adapter knows about one API request. `path` is in the `/api/...` form. */
export interface RequestFacts {
  method: string;
  path: string;
  appId: string | null;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** The parsed JSON body; undefined when absent or not JSON (body matchers then fail). */
  body: unknown;
  templateKey: string | null;
  campaignId: string | null;
}

export interface Matcher {
  explain(): string;
  test(request: RequestFacts | undefined, delivery: DeliveryFacts | undefined): boolean;
}

/** A rule's path (either API prefix) against request paths in the /api form. */
export const rulePath = (pattern: string): Wildcard => pathPattern(normalisePath(pattern));

/** Deep subset: objects by key, arrays by "each expected element matches some actual element". */
export function isSubset(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.every((e) => actual.some((a) => isSubset(e, a)));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).every(([k, v]) => k in record && isSubset(v, record[k]));
  }
  return Object.is(expected, actual);
}

const onRequest = (explain: string, test: (r: RequestFacts) => boolean): Matcher => ({
  explain: () => explain,
  test: (request) => request !== undefined && test(request),
});

/** Delivery facts win when present (they know the real template and campaign of each recipient). */
const onEither = (
  explain: string,
  pick: (facts: RequestFacts | DeliveryFacts) => string | null,
  pattern: Wildcard,
): Matcher => ({
  explain: () => explain,
  test: (request, delivery) => {
    const value = delivery ? pick(delivery) : request ? pick(request) : null;
    return value !== null && pattern(value);
  },
});

export function buildMatchers(match: ScenarioMatch): Matcher[] {
  const matchers: Matcher[] = [];
  if (match.method !== undefined || match.path !== undefined) {
    const path = match.path === undefined ? undefined : rulePath(match.path);
    const words = [
      match.method ?? 'any method',
      match.path === undefined ? 'on any path' : normalisePath(match.path),
    ].join(' ');
    matchers.push(
      onRequest(
        words,
        (r) => (match.method === undefined || r.method === match.method) && (path === undefined || path(r.path)),
      ),
    );
  }
  if (match.appId !== undefined) matchers.push(onEither(`app "${match.appId}"`, (f) => f.appId, glob(match.appId)));
  if (match.headers !== undefined) {
    const wanted = Object.entries(match.headers).map(([name, value]) => [name.toLowerCase(), glob(value)] as const);
    matchers.push(
      onRequest(`headers ${JSON.stringify(match.headers)}`, (r) =>
        wanted.every(([name, value]) => r.headers[name] !== undefined && value(r.headers[name]!)),
      ),
    );
  }
  if (match.body !== undefined) {
    const expected = match.body;
    matchers.push(
      onRequest(
        `body containing ${JSON.stringify(expected)}`,
        (r) => r.body !== undefined && isSubset(expected, r.body),
      ),
    );
  }
  if (match.templateKey !== undefined)
    matchers.push(onEither(`template "${match.templateKey}"`, (f) => f.templateKey, glob(match.templateKey)));
  if (match.campaignId !== undefined)
    matchers.push(onEither(`campaign "${match.campaignId}"`, (f) => f.campaignId, glob(match.campaignId)));
  if (match.userId !== undefined) {
    const pattern = glob(match.userId);
    matchers.push({
      explain: () => `user "${match.userId}"`,
      test: (_r, d) => d !== undefined && pattern(d.userId),
    });
  }
  return matchers;
}

export function explainMatchers(matchers: Matcher[]): string {
  return matchers.length ? matchers.map((m) => m.explain()).join(', ') : 'any request';
}
