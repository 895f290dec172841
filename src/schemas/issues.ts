/**
 * The one place zod issues are turned into words: problem lines for files and options
 * ("<where>: field "a.b": message") and error `details` keyed by field path. A union (e.g.
 * variableSchema: array form or map form) that fails reports only "Invalid input"; the
 * issues are first flattened to the branch whose shape the value has (the one that did not
 * fail on the type of the value itself). A record key's issue is reported in its own words,
 * a missing field as "is required", and a number past 2^53 by the field's own range.
 */
import type { z } from 'zod';

interface FlatIssue {
  path: PropertyKey[];
  message: string;
}

export interface IssueOptions {
  /** Report an unknown key at the key itself (`rule 1, field "tiems"`), not at its object. */
  unknownKeyInPath?: boolean;
}

/** zod's words for a field that is missing: "Invalid input: expected string, received undefined". */
const MISSING_FIELD = /^Invalid input: expected (\w+), received undefined$/;

/** An issue's message, with a missing field said as the other required fields say it: "is required: a string". */
function plainly(issue: z.core.$ZodIssue): string {
  const missing = issue.code === 'invalid_type' ? MISSING_FIELD.exec(issue.message) : null;
  return missing ? `is required: ${withArticle(kindWord(missing[1]!))}` : issue.message;
}

/** zod's name of a kind of value, in the words of JSON: a record is an object. */
const kindWord = (expected: string) => (expected === 'record' ? 'object' : expected);
const withArticle = (kind: string) => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;

/** A union whose every branch refused the value's type: the kinds it takes, instead of zod's bare "Invalid input". */
function kindsExpected(branches: readonly (readonly z.core.$ZodIssue[])[]): string {
  const kinds = branches.flatMap((branch) =>
    branch.flatMap((inner) =>
      inner.path.length === 0 && inner.code === 'invalid_type' ? [kindWord(inner.expected)] : [],
    ),
  );
  return `Invalid input: expected ${[...new Set(kinds)].join(' or ')}`;
}

/** zod's own bound on every `.int()`, ±(2^53 − 1): a field's range says more, where it has one. */
const isSafeIntegerBound = (issue: z.core.$ZodIssue) =>
  (issue.code === 'too_big' && issue.maximum === Number.MAX_SAFE_INTEGER) ||
  (issue.code === 'too_small' && issue.minimum === Number.MIN_SAFE_INTEGER);

/**
 * Without the safe-integer bound where the same field also failed its own range: `delayMs:
 * -1e308` is "expected number to be >=0", not "expected int to be >=-9007199254740991".
 */
function withoutRedundantBounds(issues: readonly z.core.$ZodIssue[]): readonly z.core.$ZodIssue[] {
  const pathOf = (issue: z.core.$ZodIssue) => JSON.stringify(issue.path.map(String));
  const ownRange = new Set(
    issues
      .filter((issue) => (issue.code === 'too_big' || issue.code === 'too_small') && !isSafeIntegerBound(issue))
      .map(pathOf),
  );
  return issues.filter((issue) => !(isSafeIntegerBound(issue) && ownRange.has(pathOf(issue))));
}

function flattenIssues(
  issues: readonly z.core.$ZodIssue[],
  options: IssueOptions,
  base: PropertyKey[] = [],
): FlatIssue[] {
  return withoutRedundantBounds(issues).flatMap((issue): FlatIssue[] => {
    const path = [...base, ...issue.path];
    if (options.unknownKeyInPath && issue.code === 'unrecognized_keys') path.push(...issue.keys.slice(0, 1));
    // A record key that failed its schema: its own message ("must be a header name"), not "Invalid key in record".
    if (issue.code === 'invalid_key')
      return issue.issues.slice(0, 1).map((inner) => ({ path, message: inner.message }));
    if (issue.code !== 'invalid_union') return [{ path, message: plainly(issue) }];
    const branches = issue.errors.filter(
      (branch) => !branch.some((inner) => inner.path.length === 0 && inner.code === 'invalid_type'),
    );
    if (branches.length === 1) return flattenIssues(branches[0]!, options, path);
    return [{ path, message: branches.length === 0 ? kindsExpected(issue.errors) : issue.message }];
  });
}

/**
 * One line per issue: `where: <field>: message`. `describeField` words the field (by default
 * `field "a.b"`, `field "(root)"` at the root); a scenario file names its rule instead.
 */
export function issueProblems(
  error: z.ZodError,
  where: string | null,
  describeField: (path: PropertyKey[]) => string = (path) => `field "${path.map(String).join('.') || '(root)'}"`,
  options: IssueOptions = {},
): string[] {
  return flattenIssues(error.issues, options).map((issue) => {
    const line = `${describeField(issue.path)}: ${issue.message}`;
    return where === null ? line : `${where}: ${line}`;
  });
}

/** The first message per field path (under `prefix`), for an error envelope's `details`. */
export function issueDetails(error: z.ZodError, prefix = '', options: IssueOptions = {}): Record<string, string> {
  const details: Record<string, string> = {};
  for (const issue of flattenIssues(error.issues, options)) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)';
    details[path] ??= issue.message;
  }
  return details;
}
