/**
 * --admin-token: everything under /__ needs "authorization: Bearer <token>" (401 otherwise),
 * the emulated API under /api does not; the client carries the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  EmulatorClientError,
  startEmulator,
  type RunningEmulator,
  type Delivery,
  type Health,
} from '../../src/index.js';
import { call, expectApiError, makeTestApp, callOk, type List, errorOf } from '../helpers/app.js';

const TOKEN = 's3cret-token';

describe('admin token, in-process', () => {
  const app = makeTestApp({ adminToken: TOKEN });
  const bearer = { headers: { authorization: `Bearer ${TOKEN}` } };

  it.each([
    '/__health',
    '/__inspect/deliveries',
    '/__inspect/notifications',
    '/__inspect/requests',
    '/__no-such-control-path',
  ])('answers 401 ERR_UNAUTHORIZED on GET %s without the token', async (path) => {
    const res = await call(app, 'GET', path);
    expectApiError(res, 401, 'ERR_UNAUTHORIZED');
    expect(errorOf(res).details).toEqual({ authorization: 'header is required' });
  });

  it('answers 401 on DELETE /__inspect without the token and clears nothing', async () => {
    await callOk(app, 'POST', '/api/notifications/send', {
      template: { key: 'plain' },
      targets: ['u1'],
      mode: 'realtime',
    });
    expectApiError(await call(app, 'DELETE', '/__inspect'), 401, 'ERR_UNAUTHORIZED');
    expect(app.emulator.store.stats().deliveries).toBeGreaterThan(0);
  });

  it.each([
    ['a wrong token', `Bearer nope`],
    ['the token without "Bearer"', TOKEN],
    ['another scheme', `Basic ${TOKEN}`],
  ])('answers 401 with %s', async (_what, authorization) => {
    const res = await call<Health>(app, 'GET', '/__health', undefined, { headers: { authorization } });
    expectApiError(res, 401, 'ERR_UNAUTHORIZED');
    expect(errorOf(res).details).toEqual({ authorization: 'wrong token' });
  });

  it('answers 200 on the control plane with the right token', async () => {
    expect((await call<Health>(app, 'GET', '/__health', undefined, bearer)).status).toBe(200);
    expect((await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries', undefined, bearer)).status).toBe(200);
  });

  it('leaves the emulated API open to appid/apikey alone', async () => {
    const res = await call(app, 'POST', '/api/notifications/send', {
      template: { key: 'plain' },
      targets: ['u2'],
      mode: 'realtime',
    });
    expect(res.status).toBe(200);
    expect((await call(app, 'GET', '/v3/business-messaging/api/notifications/send')).status).not.toBe(401);
  });

  it('needs no token when none is configured', async () => {
    expect((await call(makeTestApp(), 'GET', '/__health')).status).toBe(200);
  });
});

describe('admin token, over a socket with the client', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      adminToken: TOKEN,
      templates: [{ key: 'plain', status: 'approved', variableSchema: [], content: { in_app: { title: 'Hi' } } }],
      watch: false,
      logLevel: 'silent',
    });
  });
  afterAll(() => emu.close());

  it('the client of startEmulator carries the token', async () => {
    expect(await emu.client.health()).toMatchObject({ status: 'ok' });
    expect(emu.inspect).toBe(emu.client);
  });

  it('a client without the token gets an EmulatorClientError with status 401', async () => {
    const error = await createClient({ url: emu.url })
      .health()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorClientError);
    expect(error).toMatchObject({ status: 401, code: 'ERR_UNAUTHORIZED' });
    expect((error as Error).message).toMatch(/GET \/__health answered 401/);
  });

  it('a client with a wrong token is refused, one with the right token is not', async () => {
    await expect(createClient({ url: emu.url, adminToken: 'wrong' }).deliveries()).rejects.toMatchObject({
      status: 401,
    });
    expect(await createClient({ url: emu.url, adminToken: TOKEN }).deliveries()).toEqual({ total: 0, items: [] });
  });

  it('the API answers without the token', async () => {
    const res = await fetch(`${emu.url}/api/notifications/send`, {
      method: 'POST',
      headers: { appid: 'a', apikey: 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' }),
    });
    expect(res.status).toBe(200);
    expect((await emu.client.deliveries({ appId: 'a' })).total).toBe(1);
  });
});
