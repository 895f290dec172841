/**
 * Every refusal of the emulator by name, its words here and nowhere else, grouped by the code
 * of the table in errors.ts. A site that refuses calls one of these (or `badRequest` /
 * `notFound` for a field or a record of this app); tests assert the words, so changing one is
 * a change of behaviour. The message is the short sentence for people; the devMessage names
 * the value and what to do.
 */
import type { Channel } from '../schemas/channels.js';
import { closestName } from './did-you-mean.js';
import type { Campaign, Template } from '../schemas/records.js';
import { ApiError, notFound, type ErrorCode, type ErrorDetails } from './errors.js';

// ERR_BAD_REQUEST

/** 405: the path exists with other methods (the code table has no 405 code). */
export const methodNotAllowed = (method: string, path: string, allow: string): ApiError =>
  new ApiError('ERR_BAD_REQUEST', `${method} is not allowed on ${path}; allowed: ${allow}.`, {
    message: 'Method not allowed.',
    status: 405,
    headers: { Allow: allow },
  });

/** A body the framework could not read (hono's own 4xx); `reason` is its text when it has one. */
export const unreadableRequest = (reason: string): ApiError =>
  new ApiError('ERR_BAD_REQUEST', reason || 'The request could not be read.');

export const statusChangeRefused = (machine: string, from: string, to: string, allowed: readonly string[]): ApiError =>
  new ApiError(
    'ERR_BAD_REQUEST',
    `A ${machine} in status "${from}" cannot become "${to}"; from "${from}" it can become: ` +
      `${allowed.length ? allowed.join(', ') : 'nothing (final state)'}.`,
    {
      message: `The ${machine} is not in a state that allows this operation.`,
      details: { status: `is "${from}"` },
    },
  );

/** A file-level refusal: nothing from the file is used (docs/reference.md#upload-recipients-csv). */
export const csvFileError = (devMessage: string, details?: ErrorDetails): ApiError =>
  new ApiError('ERR_BAD_REQUEST', devMessage, {
    message: 'The CSV file is invalid.',
    ...(details ? { details } : {}),
  });

/** POST /__import without a body. */
export const traceMissing = (): ApiError =>
  new ApiError('ERR_BAD_REQUEST', 'The request body must be a trace (what GET /__export answers); it is empty.', {
    message: 'The trace is missing.',
    details: { body: 'must be a trace' },
  });

/** A trace of another format or version, truncated, or with records that do not validate: nothing changed. */
export const traceInvalid = (problems: readonly string[]): ApiError =>
  new ApiError('ERR_BAD_REQUEST', `Invalid trace, nothing was changed: ${problems.join('; ')}.`, {
    message: 'The trace is invalid.',
    details: { trace: problems[0] ?? 'is invalid' },
  });

/** One app's trace imported as another app. */
export const traceOfOtherApp = (traceApp: string, appId: string): ApiError =>
  new ApiError('ERR_BAD_REQUEST', `The trace holds app "${traceApp}" only; it cannot be imported as app "${appId}".`, {
    message: 'The trace is of another app.',
    details: { appId: `the trace is of app "${traceApp}"` },
  });

// ERR_UNAUTHORIZED

export const credentialsMissing = (appIdMissing: boolean, apiKeyMissing: boolean): ApiError => {
  const missing = [appIdMissing && 'appid', apiKeyMissing && 'apikey'].filter(Boolean).join(' and ');
  return new ApiError(
    'ERR_UNAUTHORIZED',
    `Missing ${missing} header; every API request carries both "appid" and "apikey".`,
    {
      details: {
        ...(appIdMissing && { appid: 'header is required' }),
        ...(apiKeyMissing && { apikey: 'header is required' }),
      },
    },
  );
};

export const hostAppMismatch = (hostApp: string, appId: string): ApiError =>
  new ApiError(
    'ERR_UNAUTHORIZED',
    `The Host names app "${hostApp}" but the appid header is "${appId}"; they must match.`,
    {
      message: 'Authentication failed: the Host header names another app than the appid header.',
      details: { appid: `must equal the app in the Host header ("${hostApp}")` },
    },
  );

/** Never names the expected key: only that this one is not it. */
export const wrongApiKey = (appId: string): ApiError =>
  new ApiError('ERR_UNAUTHORIZED', `The apikey is wrong for app "${appId}" (strict mode).`, {
    message: 'Authentication failed: wrong apikey for this app.',
    details: { apikey: `is not the key configured for app "${appId}"` },
  });

export const unknownApp = (appId: string): ApiError =>
  new ApiError(
    'ERR_UNAUTHORIZED',
    `No app "${appId}" is configured (strict mode: apps come from the fixtures' apps.json or EMULATOR_APPS).`,
    {
      message: 'Authentication failed: unknown appid.',
      details: { appid: 'is not a configured app' },
    },
  );

/** Proxy mode with `--upstream-region`: the app id names the live host, so it must be one host label. */
export const appIdNotAHost = (appId: string): ApiError =>
  new ApiError(
    'ERR_UNAUTHORIZED',
    `The appid "${appId}" cannot be part of a host name, so no live host can be built for it ` +
      '(--upstream-region forwards to https://{appid}.api-{region}.…); use --upstream with a URL instead.',
    { message: 'Authentication failed: unknown appid.', details: { appid: 'letters, digits and dashes only' } },
  );

export const hostRegionMismatch = (hostRegion: string, appId: string, region: string): ApiError =>
  new ApiError(
    'ERR_UNAUTHORIZED',
    `The Host names region "${hostRegion}" but app "${appId}" is configured in region "${region}".`,
    {
      message: 'Authentication failed: the Host header names another region than the app is in.',
      details: { host: `region must be "${region}" for app "${appId}" (got "${hostRegion}")` },
    },
  );

/** `given`: the authorization header as sent ('' when absent). */
export const adminAuthFailed = (given: string): ApiError =>
  new ApiError(
    'ERR_UNAUTHORIZED',
    'The control plane (/__…) needs "authorization: Bearer <admin token>" on this emulator.',
    {
      message: given
        ? 'Admin authentication failed: the bearer token is wrong.'
        : 'Admin authentication required: send "authorization: Bearer <admin token>".',
      details: { authorization: given ? 'wrong token' : 'header is required' },
    },
  );

// ERR_FORBIDDEN

/** `name`: the host's name without its port, the one to allow (undefined when it cannot be read). */
export const hostRefused = (host: string, name: string | undefined): ApiError =>
  new ApiError(
    'ERR_FORBIDDEN',
    `The control plane (/__…) does not answer requests for host "${host}": it answers localhost, IP addresses, ` +
      'one-label names (a compose service) and the names listed with --allowed-hosts (EMULATOR_ALLOWED_HOSTS). ' +
      `Start the emulator with --allowed-hosts ${name ?? '<name>'} to reach it under this name.`,
    { message: `Host "${host}" is not allowed on the control plane.`, details: { host: 'not in --allowed-hosts' } },
  );

export const originRefused = (origin: string, method: string, path: string): ApiError =>
  new ApiError(
    'ERR_FORBIDDEN',
    `${method} ${path} from origin "${origin}" is refused: a control-plane write is accepted without an Origin ` +
      '(curl, test clients), from the emulator’s own origin, or from one listed with --allowed-origins ' +
      `(EMULATOR_ALLOWED_ORIGINS). Start the emulator with --allowed-origins ${origin} to allow it.`,
    { message: `Origin "${origin}" may not change this emulator.`, details: { origin: 'not in --allowed-origins' } },
  );

// ERR_NOT_FOUND (a record of this app by reference: `notFound` in errors.ts)

export const routeNotFound = (method: string, path: string): ApiError =>
  new ApiError('ERR_NOT_FOUND', `No route for ${method} ${path}.`, {
    message: 'The requested resource was not found.',
  });

/**
 * A missing template's 404 names the app's template key nearest to the one asked (a typo), and
 * where the shared templates were read from (an empty or wrong fixtures folder).
 */
export const templateNotFound = (ref: string, origin: string | undefined, keys: readonly string[] = []): ApiError => {
  const near = closestName(ref, keys);
  const hints = [near === undefined ? '' : `Did you mean "${near}"?`, origin ? `Shared templates: ${origin}.` : ''];
  return notFound('template', ref, { by: 'id or key', hint: hints.filter(Boolean).join(' ') || undefined });
};

export const campaignTemplateGone = (campaign: Pick<Campaign, 'id' | 'templateId'>): ApiError =>
  new ApiError(
    'ERR_NOT_FOUND',
    `Campaign ${campaign.id} uses template ${campaign.templateId}, which no longer exists; its CSV columns ` +
      `cannot be checked.`,
    {
      message: 'The template was not found.',
      details: { templateId: `template ${campaign.templateId} no longer exists` },
    },
  );

export const templateChannelRowMissing = (template: Template, channel: Channel): ApiError =>
  new ApiError(
    'ERR_NOT_FOUND',
    `Template "${template.key}" (${template.id}) has no row for channel "${channel.key}" (${channel.id}) in this ` +
      `app; create it with POST /api/template-channels.`,
    { message: 'The template-channel row was not found.' },
  );

export const appNotConfigured = (appId: string): ApiError =>
  new ApiError('ERR_NOT_FOUND', `No app "${appId}" is configured; GET /__apps lists the apps.`, {
    message: 'The requested resource was not found.',
  });

export const deliveryNotStored = (id: string): ApiError =>
  new ApiError('ERR_NOT_FOUND', `No delivery "${id}" is stored (unknown id, cleared, or dropped by the cap).`, {
    message: 'The requested resource was not found.',
  });

/** `/__inspect/requests/{id}?appId=` for an entry of another app. */
export const journalEntryOfOtherApp = (id: string, appId: string): ApiError =>
  new ApiError('ERR_NOT_FOUND', `No journal entry with id "${id}" exists for app "${appId}".`, {
    message: 'The journal entry was not found.',
  });

export const journalEntryNotFound = (id: string): ApiError =>
  new ApiError(
    'ERR_NOT_FOUND',
    `No journal entry with id "${id}" (it may have been dropped by the journal cap or cleared); GET ` +
      `/__inspect/requests lists them.`,
    { message: 'The journal entry was not found.' },
  );

export const scenarioNotLoaded = (name: string): ApiError =>
  new ApiError('ERR_NOT_FOUND', `No scenario named "${name}" is loaded; GET /__scenarios lists them.`, {
    message: 'The scenario was not found.',
  });

// ERR_TEMPLATE_NOT_APPROVED, ERR_INVALID_VARIABLES, ERR_TARGET_LIMIT_EXCEEDED, ERR_INVALID_MODE

export const templateNotApproved = (template: Pick<Template, 'key' | 'status'>): ApiError =>
  new ApiError(
    'ERR_TEMPLATE_NOT_APPROVED',
    `Template "${template.key}" is "${template.status}"; only approved templates can be sent.`,
    { details: { template: `status is "${template.status}"` } },
  );

/** `details`: every problem, keyed by the variable's path; the devMessage quotes the first five. */
export const invalidVariables = (templateKey: string, details: ErrorDetails): ApiError => {
  const problems = Object.keys(details);
  return new ApiError(
    'ERR_INVALID_VARIABLES',
    `${problems.length} variable problem(s) for template "${templateKey}": ${problems
      .slice(0, 5)
      .map((k) => `${k} ${details[k]}`)
      .join('; ')}`,
    { details },
  );
};

export const targetLimitExceeded = (mode: 'realtime' | 'batch', count: number, limit: number): ApiError =>
  new ApiError(
    'ERR_TARGET_LIMIT_EXCEEDED',
    `${count} targets given; ${mode} mode allows at most ${limit}.` +
      (mode === 'realtime'
        ? ' Use mode "batch" for several users.'
        : ' Use a campaign with a CSV upload for larger audiences.'),
    { details: { targets: `at most ${limit} in ${mode} mode, got ${count}` } },
  );

export const invalidMode = (mode: string): ApiError =>
  new ApiError('ERR_INVALID_MODE', `"mode" is "${mode}"; it must be "realtime" or "batch".`, {
    details: { mode: 'must be "realtime" or "batch"' },
  });

// ERR_OPERATION_FAILED

/** A step of an upload that threw something unexpected: nothing was stored. */
export const uploadStepFailed = (step: string, error: unknown): ApiError =>
  new ApiError(
    'ERR_OPERATION_FAILED',
    `${step} failed: ${(error as Error)?.message ?? String(error)}. Nothing was added; retry the upload.`,
  );

/** Proxy mode: the live service gave no answer (`reason`: the connection refused, a timeout, …). */
export const upstreamFailed = (url: string, reason: string): ApiError =>
  new ApiError(
    'ERR_OPERATION_FAILED',
    `The upstream (the live service, --upstream) failed: ${url} ${reason}. This answer is the emulator's, ` +
      "not the live service's.",
  );

/** Anything unexpected: a bug of the emulator, said so (the caller logs the stack). */
export const internalError = (error: unknown): ApiError =>
  new ApiError(
    'ERR_OPERATION_FAILED',
    `Internal emulator error: ${(error as Error).message}. This is a bug in the emulator, not an injected fault.`,
  );

// ERR_PAYLOAD_TOO_LARGE

/** `limit` in bytes, when the refusing code knows it. */
export const payloadTooLarge = (limit?: number): ApiError =>
  new ApiError(
    'ERR_PAYLOAD_TOO_LARGE',
    limit === undefined
      ? 'The request body exceeds the configured limit.'
      : `The request body exceeds the limit of ${limit} bytes.`,
  );

// Injected by a scenario rule (any code)

export const injectedError = (code: ErrorCode, label: string, message: string | undefined): ApiError =>
  new ApiError(code, `Injected by scenario ${label}.`, message ? { message } : {});

/** `resetSec`: when the window resets, in Unix seconds. */
export const injectedRateLimit = (label: string, retryAfterSec: number, limit: number, resetSec: number): ApiError =>
  new ApiError('ERR_TOO_MANY_REQUESTS', `Rate limit injected by scenario ${label}; retry after ${retryAfterSec} s.`, {
    headers: {
      'Retry-After': String(retryAfterSec),
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(resetSec),
    },
  });
