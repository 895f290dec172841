/**
 * The API answers under two base paths, `/api` and `/v3/business-messaging/api`
 * (docs/reference.md#addressing). Where a path is compared (scenario rules, the journal's
 * `path` filter) both forms name the same endpoint, so they are compared in the `/api` form.
 */
export function normalisePath(path: string): string {
  const stripped = path.replace(/^\/v3\/business-messaging(?=\/api(\/|$))/, '');
  return stripped.length > 1 ? stripped.replace(/\/+$/, '') : stripped;
}
