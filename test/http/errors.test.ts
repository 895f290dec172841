import type { Delivery } from '../../src/index.js';
/**
 * The error envelope and code table (docs/reference.md#errors): unreadable bodies, size limits, and the
 * order of checks of a send (each adjacent pair: the earlier check wins).
 */
import { describe, expect, it } from 'vitest';
import {
  CTA,
  call,
  expectApiError,
  makeTestApp,
  request,
  send,
  type List,
  errorOf,
  type ErrorBody,
} from '../helpers/app.js';

const SEND = '/api/notifications/send';

describe('error envelope', () => {
  it('has exactly code, message, devMessage and details', async () => {
    const app = makeTestApp();
    const res = await send(app, { template: { key: 'plain' }, targets: [], mode: 'batch' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(Object.keys(errorOf(res)).sort()).toEqual(['code', 'details', 'devMessage', 'message']);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('keys zod issues by field path in details', async () => {
    const app = makeTestApp();
    const res = await send(app, { template: { key: 5 }, targets: 'x', title: 1 });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(res).details).sort()).toEqual(['mode', 'targets', 'template.key', 'title']);
  });
});

describe('unreadable bodies are clean 400s', () => {
  const app = makeTestApp();
  const headers = { 'content-type': 'application/json' };

  it('answers 400 ERR_BAD_REQUEST for malformed JSON', async () => {
    const res = await call(app, 'POST', SEND, undefined, { raw: '{"template":', headers });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('body');
  });

  it('answers 400 ERR_BAD_REQUEST for a non-JSON content type', async () => {
    const res = await call(app, 'POST', SEND, undefined, {
      raw: 'targets=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('content-type');
  });

  it('answers 400 ERR_BAD_REQUEST without a content type', async () => {
    const res = await call(app, 'POST', SEND, undefined, { raw: '{}' });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
  });

  it('accepts application/json with a charset', async () => {
    const body = JSON.stringify({ template: { key: 'plain' }, targets: ['a'], mode: 'realtime' });
    const res = await call(app, 'POST', SEND, undefined, {
      raw: body,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(200);
  });

  it('answers 400 ERR_BAD_REQUEST for an empty body', async () => {
    expectApiError(await call(app, 'POST', SEND, undefined, { raw: '', headers }), 400, 'ERR_BAD_REQUEST');
    expectApiError(await call(app, 'POST', SEND, undefined, { headers }), 400, 'ERR_BAD_REQUEST');
  });

  it('answers 400 ERR_BAD_REQUEST for a body nested deeper than 64 levels, and inspect stays readable', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const raw = `{"template":{"key":"plain","notificationPushData":{"x":${deep}}},"targets":["u"],"mode":"realtime"}`;
    const res = await call(app, 'POST', SEND, undefined, { raw, headers });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('body');
    expect((await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries')).status).toBe(200);
    const nested = `${'['.repeat(40)}${']'.repeat(40)}`;
    const ok = `{"template":{"key":"plain","notificationPushData":{"x":${nested}}},"targets":["u"],"mode":"realtime"}`;
    expect((await call(app, 'POST', SEND, undefined, { raw: ok, headers })).status).toBe(200);
  });

  it.each(['null', '[]', '"text"', '42', 'true'])('answers 400 ERR_BAD_REQUEST for the JSON value %s', async (raw) => {
    expectApiError(await call(app, 'POST', SEND, undefined, { raw, headers }), 400, 'ERR_BAD_REQUEST');
  });
});

describe('body limit', () => {
  const big = JSON.stringify({ template: { key: 'plain' }, targets: ['a'], mode: 'realtime', title: 'x'.repeat(500) });

  it('answers 413 ERR_PAYLOAD_TOO_LARGE past bodyLimitBytes (with content-length)', async () => {
    const app = makeTestApp({ bodyLimitBytes: 200 });
    const res = await request(app, SEND, {
      method: 'POST',
      headers: {
        appid: 'a',
        apikey: 'k',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(big)),
      },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorBody).error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('answers 413 ERR_PAYLOAD_TOO_LARGE past bodyLimitBytes (streamed, no content-length)', async () => {
    const app = makeTestApp({ bodyLimitBytes: 200 });
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes.slice(0, 100));
        controller.enqueue(bytes.slice(100));
        controller.close();
      },
    });
    const res = await request(app, SEND, {
      method: 'POST',
      headers: { appid: 'a', apikey: 'k', 'content-type': 'application/json' },
      body: stream,
      duplex: 'half', // undici needs it for stream bodies
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorBody).error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('holds for the control plane too, declared or streamed, and lets a small body through', async () => {
    const app = makeTestApp({ bodyLimitBytes: 200 });
    const scenario = JSON.stringify({ name: 'big', description: 'x'.repeat(500), rules: [] });
    const headers = { 'content-type': 'application/json' };
    const declared = await request(app, '/__scenarios', {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(scenario)) },
      body: scenario,
    });
    const streamed = await request(app, '/__scenarios', {
      method: 'POST',
      headers,
      body: new Blob([scenario]).stream(),
      duplex: 'half',
    } as RequestInit);
    for (const res of [declared, streamed]) {
      expect(res.status).toBe(413);
      expect(((await res.json()) as ErrorBody).error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
    }
    expect((await request(app, '/__clock', { method: 'POST', headers, body: '{"advanceMs":1000}' })).status).toBe(200);
  });

  it('accepts a body under the limit', async () => {
    const app = makeTestApp({ bodyLimitBytes: 10_000 });
    expect(
      (await call(app, 'POST', SEND, undefined, { raw: big, headers: { 'content-type': 'application/json' } })).status,
    ).toBe(200);
  });
});

describe('order of checks for send (docs/reference.md#errors)', () => {
  const app = makeTestApp({ apps: [{ appId: 'app-test', apiKey: 'key-test' }] });
  const good = {
    template: { key: 'order-confirmation', variables: { customerName: 'A', cta: CTA } },
    targets: ['u1'],
    mode: 'realtime',
  };

  it('auth before body shape', async () => {
    expectApiError(await send(app, { targets: 'bad' }, { apiKey: 'wrong' }), 401, 'ERR_UNAUTHORIZED');
  });

  it('body shape before mode', async () => {
    expectApiError(await send(app, { ...good, mode: 'nope', targets: [] }), 400, 'ERR_BAD_REQUEST');
  });

  it('mode before target count', async () => {
    expectApiError(await send(app, { ...good, mode: 'nope', targets: ['a', 'b'] }), 400, 'ERR_INVALID_MODE');
  });

  it('target count before template lookup', async () => {
    expectApiError(
      await send(app, { ...good, template: { key: 'missing' }, targets: ['a', 'b'] }),
      400,
      'ERR_TARGET_LIMIT_EXCEEDED',
    );
  });

  it('template lookup before status', async () => {
    // An unknown template cannot have a status; a known draft shows the next check in place.
    expectApiError(await send(app, { ...good, template: { key: 'missing' } }), 404, 'ERR_NOT_FOUND');
    expectApiError(await send(app, { ...good, template: { key: 'draft-one' } }), 400, 'ERR_TEMPLATE_NOT_APPROVED');
  });

  it('status before variables', async () => {
    expectApiError(
      await send(app, { ...good, template: { key: 'draft-one', variables: { undeclared: 'x' } } }),
      400,
      'ERR_TEMPLATE_NOT_APPROVED',
    );
  });

  it('variables last', async () => {
    expectApiError(
      await send(app, { ...good, template: { key: 'order-confirmation', variables: {} } }),
      400,
      'ERR_INVALID_VARIABLES',
    );
    expect((await send(app, good)).status).toBe(200);
  });
});
