/**
 * The API answers under two base paths, `/api` and `/v3/business-messaging/api`
 * (docs/reference.md#addressing). Where a path is compared (scenario rules, the journal's
 * `path` filter) both forms name the same endpoint, so they are compared in the `/api` form.
 */
export function normalisePath(path: string): string {
  // Most paths need neither change, and the journal files every request by this path (and
  // unfiles it when the cap drops it): each regular expression runs only where it may apply.
  const stripped = path.startsWith('/v3/business-messaging/api')
    ? path.replace(/^\/v3\/business-messaging(?=\/api(\/|$))/, '')
    : path;
  return stripped.length > 1 && stripped.endsWith('/') ? stripped.replace(/\/+$/, '') : stripped;
}
