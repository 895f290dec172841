/**
 * The scenario file format (docs/reference.md#scenarios): one scenario per file, a list of rules, each a
 * match (all given must hold), a fault, and activation limits (times, after, probability).
 */
import { z } from 'zod';
import { issueDetails, issueProblems } from './issues.js';

const text = z.string().min(1, 'must be a non-empty string');

/** Edit distance, for "did you mean" on a mistyped key (short keys only, so the naive table is fine). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** A strict object whose unknown-key error names the key, the closest allowed key and the allowed list. */
function strictObject<T extends z.ZodRawShape>(shape: T) {
  const allowed = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const key = issue.keys[0] ?? '';
      const close = allowed
        .map((k) => ({ k, d: distance(key.toLowerCase(), k.toLowerCase()) }))
        .filter(({ d }) => d <= Math.max(2, Math.floor(key.length / 3)) && d < key.length)
        .sort((x, y) => x.d - y.d)[0];
      const keys = issue.keys.map((k) => `"${k}"`).join(', ');
      return `unknown key ${keys}${close ? ` (did you mean "${close.k}"?)` : ''}; allowed: ${allowed.join(', ')}`;
    },
  });
}

export const MatchSchema = strictObject({
  method: text
    .transform((m) => m.toUpperCase())
    .meta({ type: 'string' })
    .optional(),
  path: z.string().regex(/^\//, 'must start with "/" (e.g. "/api/campaigns/:id/send")').optional(),
  appId: text.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  templateKey: text.optional(),
  campaignId: text.optional(),
  /** Glob on the recipient's user ID; only meaningful for failDelivery. */
  userId: text.optional(),
});

export const RateLimitSchema = strictObject({
  retryAfterSec: z.number().int().min(0).max(86_400),
  limit: z.number().int().min(1).optional(),
});

/** An HTTP header name (RFC 9110 token), as Node checks it before sending. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What Node lets a header value hold: tabs, visible Latin-1 and spaces; no line break or NUL. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/**
 * The body's framing, which the server derives from the body: a scripted value that does not
 * fit leaves the client waiting for bytes that never come, or reading the rest of the body as
 * the next answer on the connection.
 */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding']);

/** The headers of a raw answer: checked at load, so a rule cannot fail when it fires. */
const RawHeadersSchema = z.record(
  z
    .string()
    .regex(HEADER_NAME, "must be a header name: letters, digits and !#$%&'*+-.^_`|~")
    .refine(
      (name) => !FRAMING_HEADERS.has(name.toLowerCase()),
      'is set by the emulator from the body (a scripted value would break the connection; "drop" does that on purpose)',
    ),
  z.string().regex(HEADER_VALUE, 'must be a header value: no line break, NUL or character above U+00FF'),
);

/**
 * What the file schema reads of a fault kind (the table is scenario-engine/fault-kinds.ts):
 * a final kind decides the outcome, so a rule has at most one; the others (a delay) may join any.
 */
export interface FaultKindInfo {
  /** What it acts on: the request's answer, or each delivery the request starts. */
  level: 'request' | 'delivery';
  final: boolean;
}

/** The file fields of the fault kinds, keyed as in the fault table. */
type FaultKindTable = Record<'delayMs' | 'error' | 'status' | 'rateLimit' | 'drop' | 'failDelivery', FaultKindInfo>;

/**
 * The scenario schema for a list of error codes and the fault kinds' table. Both are passed in
 * (the contract's codes live in domain/errors.ts, the fault kinds in the engine, and schemas
 * import nothing but zod).
 */
export function createScenarioSchema(errorCodes: readonly string[], faultKinds: FaultKindTable) {
  const kinds = Object.keys(faultKinds) as (keyof FaultKindTable)[];
  const finalKinds = kinds.filter((k) => faultKinds[k].final);
  const joining = kinds.filter((k) => !faultKinds[k].final);
  const FaultSchema = strictObject({
    error: z.enum(errorCodes as [string, ...string[]], { error: `must be one of ${errorCodes.join(', ')}` }).optional(),
    message: z.string().optional(),
    status: z.number().int().min(200).max(599).optional(),
    body: z.unknown().optional(),
    headers: RawHeadersSchema.optional(),
    delayMs: z.number().int().min(0).max(600_000).optional(),
    rateLimit: RateLimitSchema.optional(),
    drop: z.literal(true, { error: 'must be true' }).optional(),
    failDelivery: text.optional(),
  }).superRefine((fault, ctx) => {
    const finals = finalKinds.filter((k) => fault[k] !== undefined);
    if (finals.length === 0 && joining.every((k) => fault[k] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: `needs one of ${finalKinds.join(', ')} or ${joining.join(' or ')}`,
        path: [],
      });
    }
    if (finals.length > 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          `combines ${finals.join(' and ')}; ` + `a rule has at most one of them (${joining.join(', ')} may join any)`,
        path: [finals[1]!],
      });
    }
    for (const k of ['body', 'headers'] as const) {
      if (fault[k] !== undefined && fault.status === undefined)
        ctx.addIssue({ code: 'custom', message: `is only allowed with "status" (a raw answer)`, path: [k] });
    }
    if (fault.message !== undefined && fault.error === undefined)
      ctx.addIssue({ code: 'custom', message: 'is only allowed with "error"', path: ['message'] });
  });

  const RuleSchema = strictObject({
    description: z.string().optional(),
    match: MatchSchema.default({}),
    fault: FaultSchema,
    times: z.number().int().min(1).optional(),
    after: z.number().int().min(0).default(0),
    probability: z.number().min(0).max(1).optional(),
  }).superRefine((rule, ctx) => {
    if (rule.match.userId !== undefined && rule.fault.failDelivery === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'matches recipients, so the fault must be failDelivery',
        path: ['match', 'userId'],
      });
    }
  });

  return strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, "_", "-" or "." (it is used in headers and URLs)'),
    description: z.string().optional(),
    rules: z.array(RuleSchema).min(1, 'must hold at least one rule'),
  });
}

export type Scenario = z.infer<ReturnType<typeof createScenarioSchema>>;
export type ScenarioRule = Scenario['rules'][number];
export type ScenarioFault = ScenarioRule['fault'];
export type ScenarioMatch = z.infer<typeof MatchSchema>;

/** "rule 2, field "fault.error": …" for each issue: the rule index (1-based) and the field. */
export function describeScenarioIssues(error: z.ZodError): { problems: string[]; details: Record<string, string> } {
  // An unknown key is reported at the key itself: `rule 1, field "tiems"`.
  const options = { unknownKeyInPath: true };
  const problems = issueProblems(
    error,
    null,
    (raw) => {
      const path = raw.map(String);
      if (path[0] === 'rules' && path.length >= 2 && /^\d+$/.test(path[1]!)) {
        return `rule ${Number(path[1]) + 1}, field "${path.slice(2).join('.') || '(rule)'}"`;
      }
      return `field "${path.join('.') || '(root)'}"`;
    },
    options,
  );
  return { problems, details: issueDetails(error, '', options) };
}
