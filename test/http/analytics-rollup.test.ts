/**
 * POST /api/analytics/rollup: the range's recorded events counted, nothing changed, every
 * refusal a 400 naming the field, under both base paths, journaled like any other call.
 */
import { describe, expect, it } from 'vitest';
import type {
  ChannelMetrics,
  Health,
  JournalPage,
  RollupResult as Rollup,
  UserInsights,
} from '../helpers/api-types.js';
import { call, callOk, errorOf, expectApiError, makeTestApp, manualClock, request } from '../helpers/app.js';
import { event, sendOrder } from '../helpers/analytics.js';
import type { EmulatorApp } from '../../src/index.js';

const ROLLUP = '/api/analytics/rollup';
const BOTH_PATHS = [ROLLUP, '/v3/business-messaging/api/analytics/rollup'];
const RANGE = { from: '2030-01-01T00:00:00Z', to: '2030-01-01T23:59:59Z' };

const rollup = (app: EmulatorApp, body: unknown, appId?: string) => call<Rollup>(app, 'POST', ROLLUP, body, { appId });

/** An app on a manual clock at 2030-01-01T00:00Z with one event recorded at each of the given hours. */
async function appWithEvents(hours: number[], appId = 'app-test'): Promise<EmulatorApp> {
  const app = makeTestApp({ clock: manualClock() });
  await recordAt(app, hours, appId);
  return app;
}

/** One event per hour given (from the clock's start), each of another user so none is a repeat. */
async function recordAt(app: EmulatorApp, hours: number[], appId: string): Promise<void> {
  for (const [i, hour] of hours.entries()) {
    await callOk(app, 'POST', `/__clock`, { now: new Date(Date.UTC(2030, 0, 1, hour)).toISOString() });
    const user = `user-${appId}-${i}`;
    const notificationId = await sendOrder(app, user, appId);
    await callOk(app, 'POST', '/api/analytics/events', event(notificationId, 'viewed', 'in_app', user), { appId });
  }
}

describe('POST /api/analytics/rollup', () => {
  it.each(BOTH_PATHS)("counts the app's recorded events in the range under %s", async (path) => {
    const app = await appWithEvents([1, 5, 30]);
    const res = await call<Rollup>(app, 'POST', path, RANGE);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      from: '2030-01-01T00:00:00.000Z',
      to: '2030-01-01T23:59:59.000Z',
      eventsProcessed: 2,
    });
  });

  it('counts an event at either end of the range, and none just outside it', async () => {
    const app = await appWithEvents([2, 4]);
    const at = (hour: number, ms = 0) => new Date(Date.UTC(2030, 0, 1, hour) + ms).toISOString();
    expect((await rollup(app, { from: at(2), to: at(4) })).body.eventsProcessed).toBe(2);
    expect((await rollup(app, { from: at(2), to: at(2) })).body.eventsProcessed).toBe(1);
    expect((await rollup(app, { from: at(2, 1), to: at(4, -1) })).body.eventsProcessed).toBe(0);
  });

  it('answers the range as UTC instants, whatever offset it was given in', async () => {
    const app = makeTestApp();
    const res = await rollup(app, { from: '2030-01-01T02:00:00+02:00', to: '2030-01-01T00:00:00.5-01:30' });
    expect(res.body).toEqual({
      success: true,
      from: '2030-01-01T00:00:00.000Z',
      to: '2030-01-01T01:30:00.500Z',
      eventsProcessed: 0,
    });
  });

  it('is idempotent: the same range twice answers the same and changes no other answer', async () => {
    const app = await appWithEvents([1, 2]);
    const reads = async () => ({
      metrics: await callOk<ChannelMetrics[]>(app, 'GET', '/api/analytics/channels?from=2030-01-01&to=2030-01-02'),
      user: await callOk<UserInsights>(app, 'GET', '/api/analytics/users/user-app-test-0'),
      events: (await callOk<Health>(app, 'GET', '/__health')).retention.analyticsEvents,
    });
    const before = await reads();
    const first = await rollup(app, RANGE);
    const again = await rollup(app, RANGE);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(first.body.eventsProcessed).toBe(2);
    expect(await reads()).toEqual(before);
  });

  it("counts only the calling app's events", async () => {
    const app = await appWithEvents([1]);
    await recordAt(app, [2, 3], 'app-other');
    expect((await rollup(app, RANGE)).body.eventsProcessed).toBe(1);
    expect((await rollup(app, RANGE, 'app-other')).body.eventsProcessed).toBe(2);
    expect((await rollup(app, RANGE, 'app-nobody')).body.eventsProcessed).toBe(0);
  });

  it('is journaled like any other call, refusals included', async () => {
    const app = makeTestApp();
    await rollup(app, RANGE);
    await rollup(app, { from: RANGE.to, to: RANGE.from });
    const journal = await callOk<JournalPage>(app, 'GET', `/__inspect/requests?path=${ROLLUP}`);
    expect(journal.items.map((e) => [e.method, e.status, e.errorCode, e.appId])).toEqual([
      ['POST', 200, null, 'app-test'],
      ['POST', 400, 'ERR_BAD_REQUEST', 'app-test'],
    ]);
    expect(JSON.parse(journal.items[0]!.responseBody!)).toMatchObject({ success: true, eventsProcessed: 0 });
  });

  it("takes a scenario's fault like any other call: the rollup then does not run", async () => {
    const app = makeTestApp({
      scenarios: [
        { name: 'rollup-down', rules: [{ match: { path: ROLLUP }, fault: { error: 'ERR_OPERATION_FAILED' } }] },
      ],
    });
    const res = await call(app, 'POST', ROLLUP, RANGE, { headers: { 'x-emulator-scenario': 'rollup-down' } });
    expectApiError(res, 500, 'ERR_OPERATION_FAILED');
    const journal = await callOk<JournalPage>(app, 'GET', `/__inspect/requests?scenario=rollup-down`);
    expect(journal.items.map((e) => e.path)).toEqual([ROLLUP]);
  });
});

describe('POST /api/analytics/rollup refusals', () => {
  it.each(BOTH_PATHS)('needs credentials under %s (401)', async (path) => {
    const app = makeTestApp();
    expectApiError(await call(app, 'POST', path, RANGE, { appId: '' }), 401, 'ERR_UNAUTHORIZED');
    expectApiError(await call(app, 'POST', path, RANGE, { apiKey: '' }), 401, 'ERR_UNAUTHORIZED');
  });

  it('refuses a body that is not JSON by its content type, malformed, empty or not an object', async () => {
    const app = makeTestApp();
    const raw = (text: string, type = 'application/json') =>
      call(app, 'POST', ROLLUP, undefined, { raw: text, headers: { 'content-type': type } });
    expect(expectApiError(await raw(JSON.stringify(RANGE), 'text/plain'), 400, 'ERR_BAD_REQUEST').details).toEqual({
      'content-type': 'must be application/json',
    });
    expect(expectApiError(await raw('{"from":'), 400, 'ERR_BAD_REQUEST').details).toEqual({ body: 'malformed JSON' });
    expect(expectApiError(await raw(''), 400, 'ERR_BAD_REQUEST').details).toEqual({ body: 'must be a JSON object' });
    expect(Object.keys(expectApiError(await raw('[]'), 400, 'ERR_BAD_REQUEST').details)).toEqual(['(body)']);
  });

  it.each(['from', 'to'] as const)('refuses a missing "%s", naming it', async (field) => {
    const body: Record<string, string> = { ...RANGE };
    delete body[field];
    const error = expectApiError(await rollup(makeTestApp(), body), 400, 'ERR_BAD_REQUEST');
    expect(error.details).toEqual({
      [field]: 'is required: an ISO 8601 date-time with a time zone, e.g. 2030-01-01T00:00:00Z',
    });
    expect(error.devMessage).toContain(field);
  });

  it('refuses both missing at once, naming both', async () => {
    const error = expectApiError(await rollup(makeTestApp(), {}), 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(error.details).sort()).toEqual(['from', 'to']);
  });

  const NOT_DATE_TIMES: [string, unknown][] = [
    ['a number', 1_893_456_000_000],
    ['null', null],
    ['a boolean', true],
    ['an object', { at: RANGE.from }],
    ['an empty string', ''],
    ['words', 'yesterday'],
    ['a bare date', '2030-01-01'],
    ['a date-time without a time zone', '2030-01-01T00:00:00'],
    ['a day the month does not have', '2030-02-30T00:00:00Z'],
    ['an hour past 23', '2030-01-01T24:00:00Z'],
    ['a date-time with text after it', '2030-01-01T00:00:00Z tomorrow'],
  ];
  for (const field of ['from', 'to'] as const) {
    it.each(NOT_DATE_TIMES)(`refuses ${field} given as %s, naming it`, async (_what, value) => {
      const error = expectApiError(await rollup(makeTestApp(), { ...RANGE, [field]: value }), 400, 'ERR_BAD_REQUEST');
      expect(error.details).toEqual({
        [field]: 'must be an ISO 8601 date-time with a time zone, e.g. 2030-01-01T00:00:00Z',
      });
    });
  }

  it('refuses "from" after "to", naming "from", and changes nothing', async () => {
    const app = await appWithEvents([1]);
    // Every kept record but the journal, which records the refusal.
    const health = async () => {
      const { journal: _, ...kept } = (await callOk<Health>(app, 'GET', '/__health')).retention;
      return kept;
    };
    const before = await health();
    const res = await rollup(app, { from: RANGE.to, to: RANGE.from });
    expect(expectApiError(res, 400, 'ERR_BAD_REQUEST').details).toEqual({ from: 'must not be after "to"' });
    expect(errorOf(res).devMessage).toContain('"from" is after "to"');
    expect(await health()).toEqual(before);
  });

  it('answers a wrong method with 405 naming POST', async () => {
    const res = await request(makeTestApp(), ROLLUP, { method: 'GET', headers: { appid: 'a', apikey: 'k' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});
