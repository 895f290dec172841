/**
 * Proxy mode (docs/running.md#proxy-mode) end to end over real sockets: a "live service" (a
 * second emulator, strict auth) behind a recording stand-in that can change its answers, and
 * the emulator under test in front with `upstream` set. Answers pass through unchanged, every
 * call is journaled with `upstream` (requests list, HAR, trace), faults answer without
 * forwarding (per-app sets too), a wrong type in a live answer is a violation, and a live
 * service that refuses the connection or never answers gets ERR_OPERATION_FAILED.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type CreateAppOptions, type RunningEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';
import { startUpstreamStandIn, type UpstreamStandIn } from '../helpers/upstream-stand-in.js';

const SHOP = { appid: 'shop', apikey: 'shop-key' };
const OTHER = { appid: 'other', apikey: 'other-key' };
const JSON_TYPE = { 'content-type': 'application/json' };
const SEND = JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });

const PROXY_SCENARIOS = [
  {
    name: 'send-fails',
    rules: [{ match: { path: '/api/notifications/send' }, fault: { error: 'ERR_OPERATION_FAILED' } }],
  },
  { name: 'limited', rules: [{ match: {}, fault: { rateLimit: { retryAfterSec: 7, limit: 5 } } }] },
];

const quiet = { port: 0, watch: false, logLevel: 'silent', seed: 7 } as const;

let live: RunningEmulator;
let standIn: UpstreamStandIn;
let proxy: RunningEmulator | undefined;

beforeAll(async () => {
  live = await startEmulator({
    ...quiet,
    templates: TEST_TEMPLATES,
    apps: [
      { appId: 'shop', apiKey: 'shop-key' },
      { appId: 'other', apiKey: 'other-key' },
    ],
    scenarios: [{ name: 'live-limit', rules: [{ match: {}, fault: { rateLimit: { retryAfterSec: 3, limit: 9 } } }] }],
  });
  standIn = await startUpstreamStandIn(live.url);
});
afterAll(async () => {
  await standIn.close();
  await live.close();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  standIn.plan = () => 'pass';
  standIn.seen.length = 0;
  await live.client.resetAll();
});

const startProxy = async (options: CreateAppOptions = {}) =>
  (proxy = await startEmulator({
    ...quiet,
    templates: [],
    scenarios: PROXY_SCENARIOS,
    upstream: standIn.url,
    ...options,
  }));

interface Raw {
  status: number;
  headers: Headers;
  text: string;
}
const ask = async (base: string, path: string, init: RequestInit = {}): Promise<Raw> => {
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
};
const json = async <T>(base: string, path: string): Promise<T> => (await (await fetch(`${base}${path}`)).json()) as T;

interface Entry {
  path: string;
  status: number;
  errorCode: string | null;
  scenario: string | null;
  requestHeaders: Record<string, string>;
  upstream?: { url: string; status: number | null; durationMs: number; violations: string[]; error: string | null };
}
const journal = async () => (await json<{ items: Entry[] }>(proxy!.url, '/__inspect/requests')).items;
const health = () => json<{ upstream: Record<string, unknown> | null }>(proxy!.url, '/__health');

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('proxy mode: answers pass through unchanged', () => {
  it('answers as the live service does: status, the headers that matter, the same bytes', async () => {
    await startProxy();
    // The live service rate-limits "other" (its own scenario set there): the 429 and its headers pass through.
    await live.client.forApp('other').scenarios.activate(['live-limit']);
    const calls: [string, RequestInit][] = [
      ['/api/templates?limit=1', { headers: SHOP }],
      ['/api/templates/plain', { headers: SHOP }],
      ['/api/templates/nope', { headers: SHOP }],
      ['/api/notifications/send', { method: 'POST', headers: { ...SHOP, ...JSON_TYPE }, body: '{"targets":' }],
      ['/api/templates', { headers: { appid: 'shop', apikey: 'wrong' } }],
      ['/api/templates', { headers: OTHER }],
    ];
    for (const [path, init] of calls) {
      const direct = await ask(live.url, path, init);
      const proxied = await ask(proxy!.url, path, init);
      expect(proxied.status, path).toBe(direct.status);
      expect(proxied.text, path).toBe(direct.text);
      for (const name of ['content-type', 'x-total-count', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining'])
        expect(proxied.headers.get(name), `${path} ${name}`).toBe(direct.headers.get(name));
    }
    // The wrong key is the live service's to refuse, and so it does (strict auth there).
    expect((await ask(proxy!.url, '/api/templates', { headers: { appid: 'shop', apikey: 'wrong' } })).status).toBe(401);
  });

  it('forwards both base paths to the same live path, with the caller’s own appid and apikey', async () => {
    await startProxy();
    await ask(proxy!.url, '/v3/business-messaging/api/templates?status=approved', { headers: SHOP });
    await ask(proxy!.url, '/api/templates', { headers: OTHER });
    expect(standIn.seen.map((s) => s.url)).toEqual(['/api/templates?status=approved', '/api/templates']);
    expect(standIn.seen.map((s) => [s.headers.appid, s.headers.apikey])).toEqual([
      ['shop', 'shop-key'],
      ['other', 'other-key'],
    ]);
  });

  it('forwards a send (never the fast path) and invents no delivery of its own', async () => {
    await startProxy();
    const sent = await ask(proxy!.url, '/api/notifications/send', {
      method: 'POST',
      headers: { ...SHOP, ...JSON_TYPE },
      body: SEND,
    });
    expect(sent.status).toBe(200);
    expect(standIn.seen.map((s) => [s.method, s.url, s.body])).toEqual([['POST', '/api/notifications/send', SEND]]);
    expect((await live.client.deliveries({ appId: 'shop' })).total).toBe(1);
    expect((await json<{ total: number }>(proxy!.url, '/__inspect/deliveries')).total).toBe(0);
    expect((await json<{ total: number }>(proxy!.url, '/__inspect/notifications')).total).toBe(0);
  });
});

describe('proxy mode: what is recorded', () => {
  it('journals each forwarded call with upstream, the key masked; the HAR and the trace carry it', async () => {
    await startProxy();
    await ask(proxy!.url, '/api/templates/plain', { headers: SHOP });
    await ask(proxy!.url, '/api/templates/nope', { headers: SHOP });
    const [found, missing] = await journal();
    expect(found).toMatchObject({
      path: '/api/templates/plain',
      status: 200,
      errorCode: null,
      requestHeaders: { appid: 'shop', apikey: '***' },
      upstream: { url: `${standIn.url}/api/templates/plain`, status: 200, violations: [], error: null },
    });
    expect(found!.upstream!.durationMs).toBeGreaterThanOrEqual(0);
    expect(missing).toMatchObject({
      status: 404,
      errorCode: 'ERR_NOT_FOUND',
      upstream: { status: 404, violations: [] },
    });

    const har = await json<{ log: { entries: { comment: string; _upstream?: unknown }[] } }>(
      proxy!.url,
      '/__inspect/requests.har',
    );
    expect(har.log.entries[0]!._upstream).toEqual(found!.upstream);
    expect(har.log.entries[0]!.comment).toContain(`forwarded to ${standIn.url}/api/templates/plain: answered 200`);
    const trace = await json<{ journal: Entry[] }>(proxy!.url, '/__export');
    expect(trace.journal.map((e) => e.upstream?.status)).toEqual([200, 404]);
    expect(await health()).toMatchObject({
      upstream: { target: standIn.url, forwarded: 2, failed: 0, answersWithViolations: 0, violations: 0 },
    });
  });

  it('shows no upstream counters when not proxying', async () => {
    proxy = await startEmulator({ ...quiet, templates: TEST_TEMPLATES, scenarios: [] });
    expect((await health()).upstream).toBeNull();
  });
});

describe('proxy mode: scenario faults apply first', () => {
  it('answers a matching fault itself and forwards nothing', async () => {
    await startProxy();
    const faulted = await ask(proxy!.url, '/api/notifications/send', {
      method: 'POST',
      headers: { ...SHOP, ...JSON_TYPE, 'x-emulator-scenario': 'send-fails' },
      body: SEND,
    });
    expect(faulted.status).toBe(500);
    expect(JSON.parse(faulted.text)).toMatchObject({ error: { code: 'ERR_OPERATION_FAILED' } });
    expect(standIn.seen).toEqual([]);
    const [entry] = await journal();
    expect(entry).toMatchObject({ status: 500, scenario: 'send-fails' });
    expect(entry!.upstream).toBeUndefined();
    expect((await health()).upstream).toMatchObject({ forwarded: 0 });
  });

  it('applies an app’s own scenario set to that app only', async () => {
    await startProxy();
    const set = await fetch(`${proxy!.url}/__scenarios/active?appId=other`, {
      method: 'PUT',
      headers: JSON_TYPE,
      body: JSON.stringify({ names: ['limited'] }),
    });
    expect(set.status).toBe(200);
    const limited = await ask(proxy!.url, '/api/templates', { headers: OTHER });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
    const passed = await ask(proxy!.url, '/api/templates', { headers: SHOP });
    expect(passed.status).toBe(200);
    expect(standIn.seen.map((s) => s.headers.appid)).toEqual(['shop']);
  });
});

describe('proxy mode: live answers checked against the OpenAPI document', () => {
  it('flags a wrong type in a success answer, passes the answer on as it came, and counts it', async () => {
    await startProxy();
    standIn.plan = (request) =>
      request.url === '/api/templates/plain'
        ? (answer) => ({ ...answer, body: JSON.stringify({ ...JSON.parse(answer.body), name: 42 }) })
        : 'pass';
    const changed = await ask(proxy!.url, '/api/templates/plain', { headers: SHOP });
    expect(changed.status).toBe(200);
    expect(JSON.parse(changed.text)).toMatchObject({ key: 'plain', name: 42 });
    await ask(proxy!.url, '/api/templates', { headers: SHOP });
    const [wrong, right] = await journal();
    expect(wrong!.upstream!.violations).toEqual(['$.name: expected string, received number']);
    expect(right!.upstream!.violations).toEqual([]);
    expect((await health()).upstream).toMatchObject({ forwarded: 2, answersWithViolations: 1, violations: 1 });
  });

  it('flags an item of a list, a missing X-Total-Count and a status the document does not describe', async () => {
    await startProxy();
    standIn.plan = (request) => {
      if (request.url.startsWith('/api/templates?'))
        return (answer) => {
          const items = JSON.parse(answer.body) as Record<string, unknown>[];
          const { 'x-total-count': _, ...headers } = answer.headers;
          return { ...answer, headers, body: JSON.stringify([{ ...items[0], status: 'live' }]) };
        };
      if (request.url === '/api/channels') return (answer) => ({ ...answer, status: 418 });
      return 'pass';
    };
    await ask(proxy!.url, '/api/templates?limit=1', { headers: SHOP });
    await ask(proxy!.url, '/api/channels', { headers: SHOP });
    const [list, channels] = await journal();
    expect(list!.upstream!.violations).toEqual([
      'header X-Total-Count: expected on a 200 of GET /api/templates, missing',
      expect.stringMatching(/^\$\[0\]\.status: .*"draft"/),
    ]);
    expect(channels!.upstream!.violations).toEqual([
      expect.stringMatching(/^status: expected one of 200, .* for GET \/api\/channels, got 418$/),
    ]);
  });
});

describe('proxy mode: the live service failing', () => {
  it('answers ERR_OPERATION_FAILED when the connection is refused, and journals why', async () => {
    const port = await closedPort();
    await startProxy({ upstream: `http://127.0.0.1:${port}/v3/business-messaging` });
    const failed = await ask(proxy!.url, '/api/templates', { headers: SHOP });
    expect(failed.status).toBe(500);
    const { error } = JSON.parse(failed.text) as { error: { code: string; devMessage: string } };
    expect(error.code).toBe('ERR_OPERATION_FAILED');
    expect(error.devMessage).toMatch(
      /upstream .*failed: http:\/\/127\.0\.0\.1:\d+\/v3\/business-messaging\/api\/templates/,
    );
    expect(error.devMessage).toContain('ECONNREFUSED');
    const [entry] = await journal();
    expect(entry).toMatchObject({ status: 500, errorCode: 'ERR_OPERATION_FAILED' });
    expect(entry!.upstream).toMatchObject({
      status: null,
      violations: [],
      error: expect.stringContaining('ECONNREFUSED'),
    });
    expect((await health()).upstream).toMatchObject({ forwarded: 1, failed: 1 });
  });

  it('answers ERR_OPERATION_FAILED when the live service never answers within the timeout', async () => {
    await startProxy({ upstreamTimeoutMs: 150 });
    standIn.plan = () => 'hang';
    const failed = await ask(proxy!.url, '/api/templates', { headers: SHOP });
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.text)).toMatchObject({
      error: { code: 'ERR_OPERATION_FAILED', devMessage: expect.stringContaining('gave no answer within 150 ms') },
    });
    expect(standIn.seen).toHaveLength(1);
    const [entry] = await journal();
    expect(entry!.upstream).toMatchObject({ status: null, error: expect.stringContaining('150 ms') });
  });

  it('with --upstream-region, refuses a call without an appid itself: no live host can be named', async () => {
    await startProxy({ upstream: undefined, upstreamRegion: 'eu' });
    const refused = await ask(proxy!.url, '/api/templates', { headers: { apikey: 'k' } });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text)).toMatchObject({
      error: { code: 'ERR_UNAUTHORIZED', details: { appid: 'header is required' } },
    });
    const odd = await ask(proxy!.url, '/api/templates', { headers: { appid: 'a.b', apikey: 'k' } });
    expect(JSON.parse(odd.text)).toMatchObject({
      error: { code: 'ERR_UNAUTHORIZED', details: { appid: expect.any(String) } },
    });
    expect((await health()).upstream).toMatchObject({
      target: expect.stringMatching(/^https:\/\/\{appId\}\.api-eu\./),
      forwarded: 0,
    });
  });
});
