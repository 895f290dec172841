/**
 * The words of every refusal (src/domain/error-messages.ts): status, code, message, devMessage,
 * details and headers of each, both sides of each choice a refusal makes (which header is
 * missing, a token given or not, a realtime or batch limit). The HTTP tests check that each is
 * answered where it should be; these check what it says, cheaply enough for mutation runs.
 */
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../src/schemas/channels.js';
import type { Template } from '../../src/schemas/records.js';
import type { ApiError } from '../../src/domain/errors.js';
import * as m from '../../src/domain/error-messages.js';

const shape = (e: ApiError) => ({
  status: e.status,
  code: e.code,
  message: e.message,
  devMessage: e.devMessage,
  details: e.details,
  headers: e.headers,
});

const template = { id: 't1', key: 'welcome', status: 'draft' } as Template;
const channel = { id: 'c1', key: 'sms' } as Channel;

describe('ERR_BAD_REQUEST refusals', () => {
  it('405 names the method, the path and the allowed methods, in the Allow header too', () => {
    expect(shape(m.methodNotAllowed('PUT', '/api/x', 'GET, POST'))).toEqual({
      status: 405,
      code: 'ERR_BAD_REQUEST',
      message: 'Method not allowed.',
      devMessage: 'PUT is not allowed on /api/x; allowed: GET, POST.',
      details: undefined,
      headers: { Allow: 'GET, POST' },
    });
  });

  it('an unreadable request says why, or a sentence of its own when the framework did not', () => {
    expect(m.unreadableRequest('Malformed JSON').devMessage).toBe('Malformed JSON');
    expect(shape(m.unreadableRequest(''))).toMatchObject({
      status: 400,
      devMessage: 'The request could not be read.',
      message: 'The request is invalid.',
    });
  });

  it('a refused status change lists where the record can go, or says it is final', () => {
    expect(shape(m.statusChangeRefused('campaign', 'draft', 'done', ['ready', 'cancelled']))).toEqual({
      status: 400,
      code: 'ERR_BAD_REQUEST',
      message: 'The campaign is not in a state that allows this operation.',
      devMessage: 'A campaign in status "draft" cannot become "done"; from "draft" it can become: ready, cancelled.',
      details: { status: 'is "draft"' },
      headers: {},
    });
    expect(m.statusChangeRefused('campaign', 'done', 'ready', []).devMessage).toBe(
      'A campaign in status "done" cannot become "ready"; from "done" it can become: nothing (final state).',
    );
  });

  it('a CSV file refusal keeps its details only when given', () => {
    expect(shape(m.csvFileError('Row 3: bad.', { row: '3' }))).toMatchObject({
      message: 'The CSV file is invalid.',
      devMessage: 'Row 3: bad.',
      details: { row: '3' },
    });
    expect(m.csvFileError('Empty.').details).toBeUndefined();
  });

  it('a trace missing, invalid or of another app', () => {
    expect(shape(m.traceMissing())).toMatchObject({
      message: 'The trace is missing.',
      devMessage: 'The request body must be a trace (what GET /__export answers); it is empty.',
      details: { body: 'must be a trace' },
    });
    expect(shape(m.traceInvalid(['records: bad', 'version: 2']))).toMatchObject({
      message: 'The trace is invalid.',
      devMessage: 'Invalid trace, nothing was changed: records: bad; version: 2.',
      details: { trace: 'records: bad' },
    });
    expect(m.traceInvalid([]).details).toEqual({ trace: 'is invalid' });
    expect(shape(m.traceOfOtherApp('a1', 'a2'))).toMatchObject({
      message: 'The trace is of another app.',
      devMessage: 'The trace holds app "a1" only; it cannot be imported as app "a2".',
      details: { appId: 'the trace is of app "a1"' },
    });
  });
});

describe('ERR_UNAUTHORIZED refusals', () => {
  it.each([
    [true, false, 'appid', { appid: 'header is required' }],
    [false, true, 'apikey', { apikey: 'header is required' }],
    [true, true, 'appid and apikey', { appid: 'header is required', apikey: 'header is required' }],
  ])('missing appid %s, apikey %s: names %s', (appId, apiKey, named, details) => {
    expect(shape(m.credentialsMissing(appId, apiKey))).toEqual({
      status: 401,
      code: 'ERR_UNAUTHORIZED',
      message: 'Authentication failed: check the appid and apikey headers.',
      devMessage: `Missing ${named} header; every API request carries both "appid" and "apikey".`,
      details,
      headers: {},
    });
  });

  it('a host, key, app or region that does not match', () => {
    expect(shape(m.hostAppMismatch('h1', 'a1'))).toMatchObject({
      status: 401,
      message: 'Authentication failed: the Host header names another app than the appid header.',
      devMessage: 'The Host names app "h1" but the appid header is "a1"; they must match.',
      details: { appid: 'must equal the app in the Host header ("h1")' },
    });
    expect(shape(m.wrongApiKey('a1'))).toMatchObject({
      message: 'Authentication failed: wrong apikey for this app.',
      devMessage: 'The apikey is wrong for app "a1" (strict mode).',
      details: { apikey: 'is not the key configured for app "a1"' },
    });
    expect(shape(m.unknownApp('a1'))).toMatchObject({
      message: 'Authentication failed: unknown appid.',
      devMessage: `No app "a1" is configured (strict mode: apps come from the fixtures' apps.json or EMULATOR_APPS).`,
      details: { appid: 'is not a configured app' },
    });
    expect(shape(m.hostRegionMismatch('eu', 'a1', 'us'))).toMatchObject({
      message: 'Authentication failed: the Host header names another region than the app is in.',
      devMessage: 'The Host names region "eu" but app "a1" is configured in region "us".',
      details: { host: 'region must be "us" for app "a1" (got "eu")' },
    });
  });

  it('the admin token: missing or wrong', () => {
    const devMessage = 'The control plane (/__…) needs "authorization: Bearer <admin token>" on this emulator.';
    expect(shape(m.adminAuthFailed(''))).toMatchObject({
      status: 401,
      message: 'Admin authentication required: send "authorization: Bearer <admin token>".',
      devMessage,
      details: { authorization: 'header is required' },
    });
    expect(shape(m.adminAuthFailed('Bearer x'))).toMatchObject({
      message: 'Admin authentication failed: the bearer token is wrong.',
      devMessage,
      details: { authorization: 'wrong token' },
    });
  });
});

describe('ERR_FORBIDDEN refusals', () => {
  it('a host names the flag to start with, with its name or a placeholder', () => {
    expect(shape(m.hostRefused('box:8080', 'box'))).toEqual({
      status: 403,
      code: 'ERR_FORBIDDEN',
      message: 'Host "box:8080" is not allowed on the control plane.',
      devMessage:
        'The control plane (/__…) does not answer requests for host "box:8080": it answers localhost, IP addresses, ' +
        'one-label names (a compose service) and the names listed with --allowed-hosts (EMULATOR_ALLOWED_HOSTS). ' +
        'Start the emulator with --allowed-hosts box to reach it under this name.',
      details: { host: 'not in --allowed-hosts' },
      headers: {},
    });
    expect(m.hostRefused('[', undefined).devMessage).toMatch(/--allowed-hosts <name> to reach it/);
  });

  it('an origin names the flag and the origin to allow', () => {
    expect(shape(m.originRefused('http://x', 'POST', '/__reset'))).toMatchObject({
      status: 403,
      message: 'Origin "http://x" may not change this emulator.',
      devMessage:
        'POST /__reset from origin "http://x" is refused: a control-plane write is accepted without an Origin ' +
        '(curl, test clients), from the emulator’s own origin, or from one listed with --allowed-origins ' +
        '(EMULATOR_ALLOWED_ORIGINS). Start the emulator with --allowed-origins http://x to allow it.',
      details: { origin: 'not in --allowed-origins' },
    });
  });
});

describe('ERR_NOT_FOUND refusals', () => {
  const generic = 'The requested resource was not found.';

  it('routes, apps, deliveries, journal entries and scenarios', () => {
    expect(shape(m.routeNotFound('GET', '/nope'))).toEqual({
      status: 404,
      code: 'ERR_NOT_FOUND',
      message: generic,
      devMessage: 'No route for GET /nope.',
      details: undefined,
      headers: {},
    });
    expect(shape(m.appNotConfigured('a1'))).toMatchObject({
      message: generic,
      devMessage: 'No app "a1" is configured; GET /__apps lists the apps.',
    });
    expect(shape(m.deliveryNotStored('d1'))).toMatchObject({
      message: generic,
      devMessage: 'No delivery "d1" is stored (unknown id, cleared, or dropped by the cap).',
    });
    expect(shape(m.journalEntryOfOtherApp('r1', 'a1'))).toMatchObject({
      message: 'The journal entry was not found.',
      devMessage: 'No journal entry with id "r1" exists for app "a1".',
    });
    expect(shape(m.journalEntryNotFound('r1'))).toMatchObject({
      message: 'The journal entry was not found.',
      devMessage:
        'No journal entry with id "r1" (it may have been dropped by the journal cap or cleared); GET ' +
        '/__inspect/requests lists them.',
    });
    expect(shape(m.scenarioNotLoaded('s1'))).toMatchObject({
      message: 'The scenario was not found.',
      devMessage: 'No scenario named "s1" is loaded; GET /__scenarios lists them.',
    });
  });

  it('a template says where shared templates come from, when it knows', () => {
    expect(m.templateNotFound('k', '/fixtures').devMessage).toBe(
      'No template with id or key "k" exists for this app. Shared templates: /fixtures.',
    );
    expect(m.templateNotFound('k', undefined).devMessage).toBe('No template with id or key "k" exists for this app.');
  });

  it('a campaign whose template is gone, a template without the channel row', () => {
    expect(shape(m.campaignTemplateGone({ id: 'cp1', templateId: 't1' }))).toMatchObject({
      status: 404,
      message: 'The template was not found.',
      devMessage: 'Campaign cp1 uses template t1, which no longer exists; its CSV columns cannot be checked.',
      details: { templateId: 'template t1 no longer exists' },
    });
    expect(shape(m.templateChannelRowMissing(template, channel))).toMatchObject({
      status: 404,
      message: 'The template-channel row was not found.',
      devMessage:
        'Template "welcome" (t1) has no row for channel "sms" (c1) in this app; create it with POST ' +
        '/api/template-channels.',
    });
  });
});

describe('send refusals', () => {
  it('a template not approved names its status', () => {
    expect(shape(m.templateNotApproved(template))).toEqual({
      status: 400,
      code: 'ERR_TEMPLATE_NOT_APPROVED',
      message: 'The template is not approved for sending.',
      devMessage: 'Template "welcome" is "draft"; only approved templates can be sent.',
      details: { template: 'status is "draft"' },
      headers: {},
    });
  });

  it('variable problems: the count, the first five quoted, every one in the details', () => {
    const details = Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`v${i}`, 'is required']));
    expect(shape(m.invalidVariables('welcome', details))).toEqual({
      status: 400,
      code: 'ERR_INVALID_VARIABLES',
      message: 'The template variables are missing or invalid.',
      devMessage:
        '6 variable problem(s) for template "welcome": v1 is required; v2 is required; v3 is required; ' +
        'v4 is required; v5 is required',
      details,
      headers: {},
    });
  });

  it('too many targets points realtime to batch and batch to a campaign', () => {
    expect(shape(m.targetLimitExceeded('realtime', 2, 1))).toEqual({
      status: 400,
      code: 'ERR_TARGET_LIMIT_EXCEEDED',
      message: 'Too many targets for the selected mode.',
      devMessage: '2 targets given; realtime mode allows at most 1. Use mode "batch" for several users.',
      details: { targets: 'at most 1 in realtime mode, got 2' },
      headers: {},
    });
    expect(m.targetLimitExceeded('batch', 1001, 1000).devMessage).toBe(
      '1001 targets given; batch mode allows at most 1000. Use a campaign with a CSV upload for larger audiences.',
    );
  });

  it('a bad mode names it', () => {
    expect(shape(m.invalidMode('bulk'))).toMatchObject({
      status: 400,
      code: 'ERR_INVALID_MODE',
      devMessage: '"mode" is "bulk"; it must be "realtime" or "batch".',
      details: { mode: 'must be "realtime" or "batch"' },
    });
  });
});

describe('failures, limits and injected errors', () => {
  it('a failed upload step quotes the error, or the thrown value when it is not an Error', () => {
    expect(shape(m.uploadStepFailed('Storing rows', new Error('disk full')))).toMatchObject({
      status: 500,
      code: 'ERR_OPERATION_FAILED',
      devMessage: 'Storing rows failed: disk full. Nothing was added; retry the upload.',
    });
    expect(m.uploadStepFailed('Storing rows', 'boom').devMessage).toBe(
      'Storing rows failed: boom. Nothing was added; retry the upload.',
    );
    expect(m.uploadStepFailed('Storing rows', null).devMessage).toBe(
      'Storing rows failed: null. Nothing was added; retry the upload.',
    );
  });

  it('an internal error says it is a bug, not a fault', () => {
    expect(m.internalError(new Error('x is undefined')).devMessage).toBe(
      'Internal emulator error: x is undefined. This is a bug in the emulator, not an injected fault.',
    );
  });

  it('a payload too large names the limit when known', () => {
    expect(shape(m.payloadTooLarge(1024))).toMatchObject({
      status: 413,
      devMessage: 'The request body exceeds the limit of 1024 bytes.',
    });
    expect(m.payloadTooLarge().devMessage).toBe('The request body exceeds the configured limit.');
  });

  it('an injected error keeps the default message unless the rule gives one', () => {
    expect(shape(m.injectedError('ERR_FORBIDDEN', '"s1" rule 0', 'Nope.'))).toMatchObject({
      status: 403,
      message: 'Nope.',
      devMessage: 'Injected by scenario "s1" rule 0.',
    });
    expect(m.injectedError('ERR_FORBIDDEN', 'x', undefined).message).toBe(
      'This host or origin may not use the control plane.',
    );
  });

  it('an injected rate limit sets the four rate-limit headers', () => {
    expect(shape(m.injectedRateLimit('"s1"', 30, 100, 1700000000))).toEqual({
      status: 429,
      code: 'ERR_TOO_MANY_REQUESTS',
      message: 'Too many requests. Please retry later.',
      devMessage: 'Rate limit injected by scenario "s1"; retry after 30 s.',
      details: undefined,
      headers: {
        'Retry-After': '30',
        'X-RateLimit-Limit': '100',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': '1700000000',
      },
    });
  });
});

describe('codes', () => {
  it.each([
    ['csvFileError', () => m.csvFileError('x'), 'ERR_BAD_REQUEST'],
    ['traceMissing', () => m.traceMissing(), 'ERR_BAD_REQUEST'],
    ['traceInvalid', () => m.traceInvalid(['x']), 'ERR_BAD_REQUEST'],
    ['traceOfOtherApp', () => m.traceOfOtherApp('a1', 'a2'), 'ERR_BAD_REQUEST'],
    ['wrongApiKey', () => m.wrongApiKey('a1'), 'ERR_UNAUTHORIZED'],
    ['unknownApp', () => m.unknownApp('a1'), 'ERR_UNAUTHORIZED'],
    ['hostRegionMismatch', () => m.hostRegionMismatch('eu', 'a1', 'us'), 'ERR_UNAUTHORIZED'],
    ['hostAppMismatch', () => m.hostAppMismatch('h1', 'a1'), 'ERR_UNAUTHORIZED'],
    ['adminAuthFailed', () => m.adminAuthFailed(''), 'ERR_UNAUTHORIZED'],
    ['originRefused', () => m.originRefused('o', 'POST', '/'), 'ERR_FORBIDDEN'],
    ['appNotConfigured', () => m.appNotConfigured('a1'), 'ERR_NOT_FOUND'],
    ['deliveryNotStored', () => m.deliveryNotStored('d1'), 'ERR_NOT_FOUND'],
    ['journalEntryOfOtherApp', () => m.journalEntryOfOtherApp('r1', 'a1'), 'ERR_NOT_FOUND'],
    ['journalEntryNotFound', () => m.journalEntryNotFound('r1'), 'ERR_NOT_FOUND'],
    ['scenarioNotLoaded', () => m.scenarioNotLoaded('s1'), 'ERR_NOT_FOUND'],
    ['campaignTemplateGone', () => m.campaignTemplateGone({ id: 'c', templateId: 't' }), 'ERR_NOT_FOUND'],
    ['templateChannelRowMissing', () => m.templateChannelRowMissing(template, channel), 'ERR_NOT_FOUND'],
    ['uploadStepFailed', () => m.uploadStepFailed('x', 'y'), 'ERR_OPERATION_FAILED'],
    ['internalError', () => m.internalError(new Error('x')), 'ERR_OPERATION_FAILED'],
    ['payloadTooLarge', () => m.payloadTooLarge(), 'ERR_PAYLOAD_TOO_LARGE'],
  ])('%s has its code', (_name, make, code) => {
    expect(make().code).toBe(code);
  });
});
