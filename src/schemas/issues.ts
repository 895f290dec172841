/**
 * zod issues as users should read them. A union (e.g. variableSchema: array form or map
 * form) that fails reports only "Invalid input"; this picks the branch whose shape the value
 * has (the one that did not fail on the type of the value itself) and reports its issues.
 */
import type { z } from 'zod';

export interface FlatIssue {
  path: PropertyKey[];
  message: string;
}

export function flattenIssues(issues: readonly z.core.$ZodIssue[], base: PropertyKey[] = []): FlatIssue[] {
  return issues.flatMap((issue): FlatIssue[] => {
    const path = [...base, ...issue.path];
    if (issue.code !== 'invalid_union') return [{ path, message: issue.message }];
    const branches = issue.errors.filter(
      (branch) => !branch.some((inner) => inner.path.length === 0 && inner.code === 'invalid_type'),
    );
    return branches.length === 1 ? flattenIssues(branches[0]!, path) : [{ path, message: issue.message }];
  });
}
