/**
 * The probes `verify` sends to the live service and to the emulator, one row each. Every
 * row is either a read, or a write the service must refuse before it looks anything up that
 * could deliver or store: a template key and a campaign id that no account holds, a body
 * that cannot be read. A new probe is one more row; docs/verify.md lists them all with the
 * reason each is safe, and a test keeps the two lists the same.
 */

/** A template key no account has: every send probe names it, so none can deliver. */
export const ABSENT_TEMPLATE_KEY = 'verify-probe-no-such-template';
/** A campaign id in the service's form (24 hex digits) that no campaign is ever given. */
export const ABSENT_CAMPAIGN_ID = '000000000000000000000000';
/** A user id for the per-user reads: not one of the account's users. */
const PROBE_USER = 'verify-probe-user';
/** A fixed, past window: analytics reads need one, and a fixed one gives the same request every night. */
const ANALYTICS_WINDOW = 'from=2026-01-01&to=2026-01-31';

/** What the account holds that a probe may name: one of its templates (the first by key), and every key. */
export interface ProbeContext {
  template: { id: string; key: string } | null;
  templateKeys: ReadonlySet<string>;
}

export interface Probe {
  name: string;
  method: 'GET' | 'POST';
  /** Path under the base URL, query included; a function of the template when `needs` says so. */
  path: string | ((template: { id: string; key: string }) => string);
  /** Headers beside the app id and key (same name: replaces it). */
  headers?: Record<string, string>;
  body?: string;
  /** Names the root of a success answer in differences ("templates" → `templates[].x_new`). */
  root: string;
  /** The answer is a template or a list of them: their own fields must have equal values. */
  templateValues?: boolean;
  /** Sent only when the account has a template (its id or key is in the path). */
  needs?: 'template';
  /** Names ABSENT_TEMPLATE_KEY: not sent when the account has a template of that key. */
  namesAbsentTemplate?: boolean;
  /** Why it cannot deliver a notification or change anything on the live account. */
  safe: string;
}

const json = { 'content-type': 'application/json' };
const sendTo = (targets: string[], mode: 'realtime' | 'batch') =>
  JSON.stringify({ template: { key: ABSENT_TEMPLATE_KEY }, targets, mode });

export const BATTERY: readonly Probe[] = [
  {
    name: 'templates list',
    method: 'GET',
    path: '/api/templates?limit=100',
    root: 'templates',
    templateValues: true,
    safe: 'a read',
  },
  {
    name: 'template by id',
    method: 'GET',
    path: (t) => `/api/templates/${encodeURIComponent(t.id)}`,
    root: 'template',
    templateValues: true,
    needs: 'template',
    safe: 'a read',
  },
  {
    name: 'template by key',
    method: 'GET',
    path: (t) => `/api/templates/${encodeURIComponent(t.key)}`,
    root: 'template',
    templateValues: true,
    needs: 'template',
    safe: 'a read',
  },
  {
    name: 'template channels',
    method: 'GET',
    path: (t) => `/api/template-channels?templateId=${encodeURIComponent(t.id)}`,
    root: 'templateChannels',
    needs: 'template',
    safe: 'a read',
  },
  { name: 'channels list', method: 'GET', path: '/api/channels', root: 'channels', safe: 'a read' },
  {
    name: 'channel availability',
    method: 'GET',
    path: '/api/channels/availability',
    root: 'availability',
    safe: 'a read',
  },
  { name: 'campaigns list', method: 'GET', path: '/api/campaigns', root: 'campaigns', safe: 'a read' },
  {
    name: 'channel analytics',
    method: 'GET',
    path: `/api/analytics/channels?${ANALYTICS_WINDOW}`,
    root: 'analytics',
    safe: 'a read',
  },
  {
    name: 'user analytics',
    method: 'GET',
    path: `/api/analytics/users/${PROBE_USER}`,
    root: 'userAnalytics',
    safe: 'a read',
  },
  {
    name: 'send, unknown template',
    method: 'POST',
    path: '/api/notifications/send',
    headers: json,
    body: sendTo([PROBE_USER], 'realtime'),
    root: 'notification',
    namesAbsentTemplate: true,
    safe: 'names a template key the account does not have: there is nothing to deliver',
  },
  {
    name: 'send, 10,001 targets',
    method: 'POST',
    path: '/api/notifications/send',
    headers: json,
    body: sendTo(
      Array.from({ length: 10_001 }, (_, i) => `${PROBE_USER}-${i}`),
      'batch',
    ),
    root: 'notification',
    namesAbsentTemplate: true,
    safe: 'over the batch limit, and to a template key the account does not have',
  },
  {
    name: 'send, malformed JSON',
    method: 'POST',
    path: '/api/notifications/send',
    headers: json,
    body: `{"template":{"key":"${ABSENT_TEMPLATE_KEY}"},"targets":[`,
    root: 'notification',
    namesAbsentTemplate: true,
    safe: 'the body cannot be read; it would name a template key the account does not have',
  },
  {
    name: 'send, wrong content type',
    method: 'POST',
    path: '/api/notifications/send',
    headers: { 'content-type': 'text/plain' },
    body: sendTo([PROBE_USER], 'realtime'),
    root: 'notification',
    namesAbsentTemplate: true,
    safe: 'a text/plain body, naming a template key the account does not have',
  },
  {
    name: 'wrong API key',
    method: 'GET',
    path: '/api/templates',
    headers: { apikey: 'verify-probe-wrong-key' },
    root: 'templates',
    safe: "a read, with a key that is not the account's",
  },
  {
    name: 'unknown campaign',
    method: 'GET',
    path: `/api/campaigns/${ABSENT_CAMPAIGN_ID}`,
    root: 'campaign',
    safe: 'a read',
  },
  {
    name: 'send unknown campaign',
    method: 'POST',
    path: `/api/campaigns/${ABSENT_CAMPAIGN_ID}/send`,
    headers: json,
    body: '{}',
    root: 'campaign',
    safe: 'names a campaign id no campaign is given: there is nothing to send',
  },
  {
    name: 'unknown route',
    method: 'GET',
    path: '/api/verify-probe-no-such-route',
    root: 'body',
    safe: 'a read of a path the API does not have',
  },
];

/** The path a probe is sent to, or why it is not sent to this account. */
export function probeTarget(probe: Probe, context: ProbeContext): { path: string } | { skipped: string } {
  if (probe.namesAbsentTemplate && context.templateKeys.has(ABSENT_TEMPLATE_KEY)) {
    return { skipped: `the account has a template with the key ${ABSENT_TEMPLATE_KEY}` };
  }
  if (typeof probe.path === 'string') return { path: probe.path };
  if (!context.template) return { skipped: 'the account has no template' };
  return { path: probe.path(context.template) };
}
