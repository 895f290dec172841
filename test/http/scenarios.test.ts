/**
 * Scenario faults over in-process HTTP (docs/reference.md#scenarios): each request-level fault kind,
 * failDelivery, counters, after, seeded probability, activation and the journal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConnectionDropped,
  type EmulatorApp,
  type Delivery,
  type JournalEntry,
  type ScenarioList,
} from '../../src/index.js';
import {
  expectApiError,
  makeTestApp,
  manualClock,
  callOk,
  sendOk,
  type List,
  errorOf,
  call,
  send,
} from '../helpers/app.js';

const PLAIN = { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' };
const batch = (targets: string[]) => ({ template: { key: 'plain' }, targets, mode: 'batch' });
const rule = (fault: object, extra: object = {}) => ({
  match: { method: 'POST', path: '/api/notifications/send' },
  fault,
  ...extra,
});
const scenario = (name: string, ...rules: object[]) => ({ name, description: `${name} for tests`, rules });

let app: EmulatorApp;
afterEach(() => app?.close());
const make = (
  scenarios: object[],
  activeScenarios: string[] = scenarios.map((s) => (s as { name: string }).name),
  seed = 1,
) => (app = makeTestApp({ scenarios, activeScenarios, seed }));

describe('request-level faults', () => {
  it('answers the contract envelope with the status of an injected error code', async () => {
    make([scenario('outage', rule({ error: 'ERR_OPERATION_FAILED' }))]);
    const res = await send(app, PLAIN);
    expectApiError(res, 500, 'ERR_OPERATION_FAILED');
    expect(errorOf(res).devMessage).toContain('outage');
  });

  it('uses a rule message instead of the default when given', async () => {
    make([scenario('nf', rule({ error: 'ERR_NOT_FOUND', message: 'Gone fishing.' }))]);
    const res = await send(app, PLAIN);
    expectApiError(res, 404, 'ERR_NOT_FOUND');
    expect(errorOf(res).message).toBe('Gone fishing.');
  });

  it('answers a raw status, body and headers as given (no envelope)', async () => {
    make([scenario('raw', rule({ status: 503, body: { oops: true }, headers: { 'x-upstream': 'down' } }))]);
    const res = await send(app, PLAIN);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ oops: true });
    expect(res.headers.get('x-upstream')).toBe('down');
  });

  it('sends no body with a null-body status, whatever body the rule scripts', async () => {
    make([scenario('empty', rule({ status: 204, body: { ignored: true } }))]);
    const res = await send(app, PLAIN);
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
  });

  it('answers a raw text body as text', async () => {
    make([scenario('raw-text', rule({ status: 502, body: 'Bad Gateway' }))]);
    const res = await send(app, PLAIN);
    expect(res.status).toBe(502);
    expect(res.body).toBe('Bad Gateway');
  });

  it('answers 429 ERR_TOO_MANY_REQUESTS with the rate-limit headers', async () => {
    // A manual clock: with real time the answer's second and the test's could differ by one.
    app = makeTestApp({
      scenarios: [scenario('throttle', rule({ rateLimit: { retryAfterSec: 30, limit: 500 } }))],
      activeScenarios: ['throttle'],
      clock: manualClock('2030-01-01T00:00:00.500Z'),
    });
    const res = await send(app, PLAIN);
    expectApiError(res, 429, 'ERR_TOO_MANY_REQUESTS');
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('x-ratelimit-limit')).toBe('500');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBe(Date.parse('2030-01-01T00:00:01Z') / 1000 + 30);
  });

  it('defaults X-RateLimit-Limit when the rule gives no limit', async () => {
    make([scenario('throttle', rule({ rateLimit: { retryAfterSec: 1 } }))]);
    const res = await send(app, PLAIN);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10000');
  });

  it('throws the ConnectionDropped marker under app.request() for a drop', async () => {
    make([scenario('drop', rule({ drop: true }))]);
    await expect(send(app, PLAIN)).rejects.toBeInstanceOf(ConnectionDropped);
  });

  it('answers normally after a delay-only rule and journals the rule', async () => {
    make([scenario('slow', rule({ delayMs: 5 }))]);
    const res = await send(app, PLAIN);
    expect(res.status).toBe(200);
    const journal = await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests?scenario=slow');
    expect(journal.body.items[0]).toMatchObject({ scenario: 'slow', rule: expect.stringContaining('wait 5 ms') });
  });

  it('delays then faults when delayMs joins a final fault', async () => {
    make([scenario('slow-fail', rule({ delayMs: 5, error: 'ERR_OPERATION_FAILED' }))]);
    expectApiError(await send(app, PLAIN), 500, 'ERR_OPERATION_FAILED');
  });
});

describe('matching', () => {
  it('matches the production prefix and the short prefix with the same rule', async () => {
    make([
      scenario('outage', {
        match: { path: '/v3/business-messaging/api/notifications/send' },
        fault: { error: 'ERR_OPERATION_FAILED' },
      }),
    ]);
    expectApiError(await call(app, 'POST', '/api/notifications/send', PLAIN), 500, 'ERR_OPERATION_FAILED');
    expectApiError(
      await call(app, 'POST', '/v3/business-messaging/api/notifications/send', PLAIN),
      500,
      'ERR_OPERATION_FAILED',
    );
  });

  it('matches :param segments and * globs in paths', async () => {
    make([
      scenario(
        'p',
        { match: { path: '/api/campaigns/:id/send' }, fault: { status: 418 } },
        { match: { path: '/api/templ*' }, fault: { status: 419 } },
      ),
    ]);
    expect((await call(app, 'POST', '/api/campaigns/abc/send', {})).status).toBe(418);
    expect((await call(app, 'GET', '/api/templates')).status).toBe(419);
    expect((await call(app, 'GET', '/api/campaigns/abc')).status).not.toBe(418);
  });

  it('matches a deep subset of the JSON body and the template key', async () => {
    make([
      scenario(
        'b',
        { match: { body: { mode: 'batch', targets: ['u9'] } }, fault: { status: 418 } },
        { match: { templateKey: 'greet*' }, fault: { status: 419 } },
      ),
    ]);
    expect((await send(app, batch(['u1', 'u9']))).status).toBe(418);
    expect((await send(app, batch(['u1']))).status).toBe(200);
    expect((await send(app, { ...PLAIN, template: { key: 'greeting', variables: { name: 'A' } } })).status).toBe(419);
  });

  it('fires a rule whose only matcher is the template key, read from the body of a send', async () => {
    // Nothing else in the scenario asks for the body, so the key is what makes it read.
    make([scenario('t', { match: { templateKey: 'greet*' }, fault: { status: 419 } })]);
    expect((await send(app, { ...PLAIN, template: { key: 'greeting', variables: { name: 'A' } } })).status).toBe(419);
    expect((await send(app, PLAIN)).status).toBe(200);
    expect((await call(app, 'GET', '/api/templates')).status).toBe(200);
  });

  it('lets a non-JSON body fail body matchers and the route report it', async () => {
    make([scenario('b', { match: { body: { mode: 'batch' } }, fault: { status: 418 } })]);
    const res = await call(app, 'POST', '/api/notifications/send', undefined, {
      raw: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
  });

  it('matches a campaignId glob on a path with a malformed escape without failing the request itself', async () => {
    make([scenario('c', { match: { campaignId: 'zz*' }, fault: { status: 418 } })]);
    expect((await call(app, 'POST', '/api/campaigns/zz1/send', {})).status).toBe(418);
    expect((await call(app, 'POST', '/api/campaigns/%E0%A4/send', {})).status).not.toBe(500);
  });

  it('matches headers case-insensitively and the app ID', async () => {
    make([scenario('h', { match: { headers: { 'X-Client': 'ios' }, appId: 'app-a' }, fault: { status: 418 } })]);
    expect((await send(app, PLAIN, { appId: 'app-a', headers: { 'x-client': 'ios' } })).status).toBe(418);
    expect((await send(app, PLAIN, { appId: 'app-b', headers: { 'x-client': 'ios' } })).status).toBe(200);
    expect((await send(app, PLAIN, { appId: 'app-a' })).status).toBe(200);
  });
});

describe('activation and counting', () => {
  it('applies a rule `times` times, then the request works', async () => {
    make([scenario('twice', rule({ error: 'ERR_OPERATION_FAILED' }, { times: 2 }))]);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(app, PLAIN)).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
  });

  it('skips the first `after` matches', async () => {
    make([scenario('late', rule({ error: 'ERR_OPERATION_FAILED' }, { after: 2, times: 1 }))]);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(app, PLAIN)).status);
    expect(statuses).toEqual([200, 200, 500, 200]);
  });

  it('draws probability from the seeded source: same seed, same sequence', async () => {
    const run = async (seed: number) => {
      make([scenario('coin', rule({ status: 503 }, { probability: 0.5 }))], ['coin'], seed);
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await send(app, PLAIN)).status);
      await app.close();
      return out;
    };
    const first = await run(42);
    expect(await run(42)).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
  });

  it('does nothing for loaded scenarios that are not active', async () => {
    make([scenario('outage', rule({ error: 'ERR_OPERATION_FAILED' }))], []);
    expect((await send(app, PLAIN)).status).toBe(200);
  });

  it('applies header scenarios to that request only', async () => {
    make([scenario('outage', rule({ error: 'ERR_OPERATION_FAILED' }))], []);
    expectApiError(
      await send(app, PLAIN, { headers: { 'x-emulator-scenario': 'outage' } }),
      500,
      'ERR_OPERATION_FAILED',
    );
    expect((await send(app, PLAIN)).status).toBe(200);
    expect((await call<ScenarioList>(app, 'GET', '/__scenarios')).body.active).toEqual([]);
  });

  it('answers 400 ERR_BAD_REQUEST naming an unknown scenario in the header', async () => {
    make([scenario('outage', rule({ error: 'ERR_OPERATION_FAILED' }))], []);
    const res = await send(app, PLAIN, { headers: { 'x-emulator-scenario': 'outage, nope' } });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).devMessage).toContain('"nope"');
  });

  it('keeps header counters apart from global ones and parallel headers apart from each other', async () => {
    make(
      [
        scenario('twice', rule({ error: 'ERR_OPERATION_FAILED' }, { times: 2 })),
        scenario('raw', rule({ status: 418 })),
      ],
      [],
    );
    const headers = (name?: string) => (name ? { headers: { 'x-emulator-scenario': name } } : {});
    const plan = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 'raw' : i % 3 === 1 ? undefined : 'twice'));
    const results = await Promise.all(
      plan.map((name) => send(app, PLAIN, headers(name)).then((r) => ({ name, status: r.status }))),
    );
    expect(results.filter((r) => r.name === 'raw').every((r) => r.status === 418)).toBe(true);
    expect(results.filter((r) => r.name === undefined).every((r) => r.status === 200)).toBe(true);
    expect(
      results
        .filter((r) => r.name === 'twice')
        .map((r) => r.status)
        .sort(),
    ).toEqual([...Array(8).fill(200), 500, 500]);
    // Global activation starts with its own fresh counters.
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['twice'] });
    expect((await send(app, PLAIN)).status).toBe(500);
  });
});

describe('failDelivery', () => {
  it('fails matching recipients of a one-call send, naming the scenario, while the request succeeds', async () => {
    make([scenario('flaky', { match: { userId: 'user-9*' }, fault: { failDelivery: 'device unreachable' } })]);
    const res = await send(app, batch(['user-1', 'user-90', 'user-91']));
    expect(res.status).toBe(200);
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries');
    const byUser = Object.fromEntries(body.items.map((d) => [d.userId, d]));
    expect(byUser['user-1']).toMatchObject({ status: 'sent', failureReason: null, scenario: null });
    expect(byUser['user-90']).toMatchObject({
      status: 'failed',
      failureReason: 'device unreachable',
      scenario: 'flaky',
    });
    expect(byUser['user-91']!.status).toBe('failed');
  });

  it('names the failDelivery rule in the journal entry of the request that caused it', async () => {
    make([scenario('flaky', { match: { userId: 'user-9*' }, fault: { failDelivery: 'device unreachable' } })]);
    await sendOk(app, batch(['user-1']));
    await sendOk(app, batch(['user-90']));
    const { body } = await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests');
    expect(body.items.map((e) => e.scenario)).toEqual([null, 'flaky']);
    expect(body.items[1]!.rule).toBe('rule 1: user "user-9*" → fail matching deliveries ("device unreachable")');
  });

  it('counts `times` per recipient and honours request matchers', async () => {
    make([
      scenario('two', {
        match: { path: '/api/notifications/send', body: { tag: 'x' } },
        fault: { failDelivery: 'bounced' },
        times: 2,
      }),
    ]);
    await sendOk(app, { ...batch(['a', 'b']), tag: 'y' });
    await sendOk(app, { ...batch(['c', 'd', 'e']), tag: 'x' });
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?status=failed');
    expect(body.items.map((d) => d.userId)).toEqual(['c', 'd']);
  });

  it('applies header-activated failDelivery only to that request', async () => {
    make([scenario('all-fail', { match: { userId: '*' }, fault: { failDelivery: 'down' } })], []);
    await Promise.all([
      send(app, batch(['h1']), { headers: { 'x-emulator-scenario': 'all-fail' } }),
      send(app, batch(['n1'])),
    ]);
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries');
    const byUser = Object.fromEntries(body.items.map((d) => [d.userId, d.status]));
    expect(byUser).toEqual({ h1: 'failed', n1: 'sent' });
  });

  it('reads the active set when the policy is called (later work sees changes)', async () => {
    make([scenario('all-fail', { match: { userId: '*' }, fault: { failDelivery: 'down' } })], []);
    const policy = app.emulator.scenarios.deliveryFaults([]);
    const facts = { appId: 'a', userId: 'u', templateKey: 'plain', campaignId: 'c1' };
    expect(policy(facts)).toBeNull();
    app.emulator.scenarios.setActive(['all-fail']);
    expect(policy(facts)).toEqual({ reason: 'down', scenario: 'all-fail' });
  });
});
