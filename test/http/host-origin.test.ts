/**
 * Other web pages cannot touch the control plane (docs/reference.md#security), in process with
 * explicit Host and Origin headers: a cross-site form post and a DNS-rebinding read are refused
 * with 403 ERR_FORBIDDEN and change nothing; every local form is accepted; the API keeps any
 * Host; the page keeps its headers; CORS only for listed origins.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { EmulatorApp } from '../../src/index.js';
import { errorOf, expectApiError, makeTestApp, sendOk, type CallResult } from '../helpers/app.js';

const PLAIN = { template: { key: 'plain' }, targets: ['user-42'], mode: 'realtime' };
const ATTACKER_HOST = 'attacker.example:4010';
const EVIL = 'https://evil.example';

/** A request with exactly these headers (no appid/apikey unless given). */
async function raw(app: EmulatorApp, method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await app.request(path, { method, headers, body });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const parsed: unknown = type.includes('json') && text ? JSON.parse(text) : text;
  return { status: res.status, body: parsed, headers: res.headers, text } as CallResult & { text: string };
}

const stored = (app: EmulatorApp) => app.emulator.store.stats().deliveries;
const journaled = (app: EmulatorApp) => app.emulator.store.stats().journal;

describe('the two attacks', () => {
  const app = makeTestApp();
  afterAll(() => app.close());

  it('refuses a cross-site form post to POST /__reset (text/plain, no preflight) and wipes nothing', async () => {
    await sendOk(app, PLAIN);
    const form = { 'content-type': 'text/plain', origin: EVIL, host: 'localhost:4010' };
    const res = await raw(app, 'POST', '/__reset', form, 'x=1');
    const error = expectApiError(res, 403, 'ERR_FORBIDDEN');
    expect(error.message).toBe(`Origin "${EVIL}" may not change this emulator.`);
    expect(error.devMessage).toContain('--allowed-origins');
    expect(error.details).toEqual({ origin: 'not in --allowed-origins' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(stored(app)).toBe(1);
  });

  it.each([
    ['DELETE', '/__inspect'],
    ['POST', '/__clock'],
    ['PUT', '/__scenarios/active'],
    ['PATCH', '/__scenarios/active'],
  ])('refuses %s %s from another site before reading anything', async (method, path) => {
    const res = await raw(app, method, path, { origin: EVIL, 'content-type': 'application/json' }, '{}');
    expectApiError(res, 403, 'ERR_FORBIDDEN');
    expect(stored(app)).toBe(1);
  });

  it('refuses a DNS-rebinding read of the journal (Host of a name that resolves here)', async () => {
    expect(journaled(app)).toBeGreaterThan(0);
    const res = await raw(app, 'GET', '/__inspect/requests', { host: ATTACKER_HOST });
    const error = expectApiError(res, 403, 'ERR_FORBIDDEN');
    expect(error.message).toBe(`Host "${ATTACKER_HOST}" is not allowed on the control plane.`);
    expect(error.devMessage).toContain('--allowed-hosts attacker.example');
    expect(error.details).toEqual({ host: 'not in --allowed-hosts' });
    expect(res.text).not.toContain('user-42');
  });

  it.each(['/__', '/__/', '/__/deliveries', '/__inspect/stream', '/__health', '/__no-such-path', '/__reset'])(
    'refuses every path under /__ for a foreign Host: GET %s',
    async (path) => {
      expectApiError(await raw(app, 'GET', path, { host: ATTACKER_HOST, accept: 'text/html' }), 403, 'ERR_FORBIDDEN');
    },
  );

  it('refuses a rebinding write even when its Origin names the same foreign host', async () => {
    const res = await raw(app, 'POST', '/__reset', { host: ATTACKER_HOST, origin: `http://${ATTACKER_HOST}` });
    expectApiError(res, 403, 'ERR_FORBIDDEN');
    expect(errorOf(res).details).toEqual({ host: 'not in --allowed-hosts' });
    expect(stored(app)).toBe(1);
  });

  it('checks the Host before the admin token: 403, not 401', async () => {
    const guarded = makeTestApp({ adminToken: 't' });
    expectApiError(await raw(guarded, 'GET', '/__health', { host: ATTACKER_HOST }), 403, 'ERR_FORBIDDEN');
    expectApiError(await raw(guarded, 'GET', '/__health', { host: 'localhost' }), 401, 'ERR_UNAUTHORIZED');
    await guarded.close();
  });
});

describe('what stays open', () => {
  const app = makeTestApp({ allowedHosts: ['emu.corp.example'] });
  afterAll(() => app.close());

  it.each(['/api/notifications/send', '/v3/business-messaging/api/notifications/send'])(
    'the API at %s answers any Host',
    async (path) => {
      const headers = { host: ATTACKER_HOST, appid: 'a', apikey: 'k', 'content-type': 'application/json' };
      expect((await raw(app, 'POST', path, headers, JSON.stringify(PLAIN))).status).toBe(200);
    },
  );

  it.each([
    'localhost:4010',
    'LOCALHOST',
    'localhost.:4010',
    'app.localhost:4010',
    '127.0.0.1:4010',
    '127.0.0.1',
    '10.1.2.3:4010',
    '[::1]:4010',
    '[::1]',
    'emulator:4010',
    'notification-emulator',
    'emu.corp.example',
    'EMU.corp.example:443',
  ])('the control plane answers Host %s', async (host) => {
    expect((await raw(app, 'GET', '/__health', { host })).status).toBe(200);
  });

  it('takes a write without an Origin (curl, test clients, server code)', async () => {
    await sendOk(app, PLAIN);
    const res = await raw(app, 'POST', '/__reset', { host: 'localhost:4010' });
    expect(res.status).toBe(200);
    expect(stored(app)).toBe(0);
  });

  it.each([
    ['the page on localhost', 'localhost:4010', 'http://localhost:4010'],
    ['the page on [::1]', '[::1]:4010', 'http://[::1]:4010'],
    ['the page on a compose name', 'emulator:4010', 'http://emulator:4010'],
    ['a TLS proxy that keeps the Host', 'emu.corp.example', 'https://emu.corp.example'],
    ['a proxy on a default port', 'emu.corp.example:80', 'http://emu.corp.example'],
  ])('takes a write from the emulator’s own origin: %s', async (_what, host, origin) => {
    await sendOk(app, PLAIN);
    const res = await raw(app, 'DELETE', '/__inspect', { host, origin });
    expect(res.status).toBe(200);
    expect(stored(app)).toBe(0);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a write from the same host on another port (another local app is another site)', async () => {
    const res = await raw(app, 'POST', '/__reset', { host: 'localhost:4010', origin: 'http://localhost:3000' });
    expectApiError(res, 403, 'ERR_FORBIDDEN');
  });

  it('answers anything with --allowed-hosts *', async () => {
    const open = makeTestApp({ allowedHosts: ['*'] });
    expect((await raw(open, 'GET', '/__health', { host: ATTACKER_HOST })).status).toBe(200);
    await open.close();
  });
});

describe('headers', () => {
  const app = makeTestApp();
  afterAll(() => app.close());

  it('the page keeps its CSP and nosniff and sends no referrer', async () => {
    const res = await raw(app, 'GET', '/__/', { host: 'localhost:4010', accept: 'text/html' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('no control answer carries CORS headers without --allowed-origins', async () => {
    for (const [method, path] of [
      ['GET', '/__health'],
      ['GET', '/__/'],
      ['GET', '/__inspect/deliveries'],
      ['POST', '/__reset'],
      ['OPTIONS', '/__reset'],
    ] as const) {
      const res = await raw(app, method, path, { origin: EVIL, 'access-control-request-method': 'POST' });
      expect(res.headers.get('access-control-allow-origin'), `${method} ${path}`).toBeNull();
      expect(res.status, `${method} ${path}`).toBe(method === 'GET' ? 200 : 403);
    }
  });
});

describe('--allowed-origins', () => {
  const TOOLS = 'https://tools.example:8443';
  const app = makeTestApp({ allowedOrigins: [TOOLS], adminToken: 't' });
  afterAll(() => app.close());
  const bearer = { authorization: 'Bearer t' };

  it('answers a preflight from a listed origin, before and without the admin token', async () => {
    const res = await raw(app, 'OPTIONS', '/__reset', {
      origin: TOOLS,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(TOOLS);
    expect(res.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('lets a listed origin write and read, with CORS headers on the answers (errors included)', async () => {
    await sendOk(app, PLAIN);
    const write = await raw(app, 'POST', '/__reset', { origin: TOOLS, ...bearer });
    expect(write.status).toBe(200);
    expect(stored(app)).toBe(0);
    expect(write.headers.get('access-control-allow-origin')).toBe(TOOLS);
    const read = await raw(app, 'GET', '/__health', { origin: TOOLS, ...bearer });
    expect([read.status, read.headers.get('access-control-allow-origin')]).toEqual([200, TOOLS]);
    const refused = await raw(app, 'GET', '/__health', { origin: TOOLS });
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([401, TOOLS]);
  });

  it('still refuses every other origin, and sends them no CORS headers', async () => {
    await sendOk(app, PLAIN);
    for (const origin of [EVIL, 'http://tools.example:8443', 'https://tools.example', 'null']) {
      const res = await raw(app, 'POST', '/__reset', { origin, ...bearer });
      expectApiError(res, 403, 'ERR_FORBIDDEN');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    const read = await raw(app, 'GET', '/__health', { origin: EVIL, ...bearer });
    expect([read.status, read.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    expect(stored(app)).toBe(1);
  });

  it('with * lets any origin write and reflects it', async () => {
    const open = makeTestApp({ allowedOrigins: ['*'] });
    const res = await raw(open, 'DELETE', '/__inspect', { origin: EVIL });
    expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([200, EVIL]);
    await open.close();
  });
});
