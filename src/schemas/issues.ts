/**
 * The one place zod issues are turned into words: problem lines for files and options
 * ("<where>: field "a.b": message") and error `details` keyed by field path.
 */
import type { z } from 'zod';

/** The issue's path as dotted text ("" at the root). */
const pathOf = (issue: z.core.$ZodIssue): string => issue.path.map(String).join('.');

/**
 * One line per issue: `where: <field>: message`. `describeField` words the field (by default
 * `field "a.b"`, `field "(root)"` at the root); a scenario file names its rule instead.
 */
export function issueProblems(
  error: z.ZodError,
  where: string | null,
  describeField: (path: string[]) => string = (path) => `field "${path.join('.') || '(root)'}"`,
): string[] {
  return error.issues.map((issue) => {
    const line = `${describeField(issue.path.map(String))}: ${issue.message}`;
    return where === null ? line : `${where}: ${line}`;
  });
}

/** The first message per field path (under `prefix`), for an error envelope's `details`. */
export function issueDetails(error: z.ZodError, prefix = ''): Record<string, string> {
  const details: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = [prefix, pathOf(issue)].filter(Boolean).join('.') || '(body)';
    details[path] ??= issue.message;
  }
  return details;
}
