import type { Channel, ChannelAvailability } from '../helpers/api-types.js';
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, manualClock, callOk, errorOf, call } from '../helpers/app.js';

const IN_APP = { name: 'In-App Alerts', type: 'in_app', templateType: 'ui' };
const PUSH = { name: 'Mobile Push', type: 'push', templateType: 'data', config: { provider: 'fcm' } };

describe('POST /api/channels', () => {
  it('creates a channel with a key derived from the name and the documented defaults', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const res = await call<Channel>(app, 'POST', '/api/channels', PUSH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      appId: 'app-test',
      name: 'Mobile Push',
      key: 'mobile-push',
      type: 'push',
      templateType: 'data',
      enabled: true,
      categoryFilter: false,
      templateLabel: false,
      config: { provider: 'fcm' },
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
  });

  it('answers 400 ERR_BAD_REQUEST with details for a missing name, an unknown type, a bad templateType', async () => {
    const app = makeTestApp();
    const res = await call<Channel>(app, 'POST', '/api/channels', {
      type: 'pager',
      templateType: 'html',
      enabled: 'yes',
    });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(res).details).sort()).toEqual(['enabled', 'name', 'templateType', 'type']);
  });

  it('answers 400 ERR_BAD_REQUEST for a second push channel in the same app', async () => {
    const app = makeTestApp();
    expect((await call<Channel>(app, 'POST', '/api/channels', PUSH)).status).toBe(200);
    const res = await call<Channel>(app, 'POST', '/api/channels', { ...PUSH, name: 'Other Push' });
    expect(expectApiError(res, 400, 'ERR_BAD_REQUEST')).toMatchObject({
      devMessage: 'Cannot create a "push" channel: only one push channel is allowed per app.',
      details: { type: 'only one push channel is allowed per app' },
    });
  });

  it('lets another app create its own push channel', async () => {
    const app = makeTestApp();
    await callOk<Channel>(app, 'POST', '/api/channels', PUSH, { appId: 'app-a' });
    expect((await call<Channel>(app, 'POST', '/api/channels', PUSH, { appId: 'app-b' })).status).toBe(200);
  });

  it.each(['sms', 'email', 'whatsapp', 'custom'])(
    'answers 400 ERR_BAD_REQUEST for type %s (limit 0 without a provisioned plan)',
    async (type) => {
      const app = makeTestApp();
      const res = await call<Channel>(app, 'POST', '/api/channels', { name: `My ${type}`, type, templateType: 'data' });
      const why =
        `channel type "${type}" has limit 0: ` +
        'it needs a plan provisioned by sales (see GET /api/channels/availability)';
      expect(expectApiError(res, 400, 'ERR_BAD_REQUEST')).toMatchObject({
        devMessage: `Cannot create a "${type}" channel: ${why}.`,
        details: { type: why },
      });
    },
  );

  it('allows any number of in_app channels', async () => {
    const app = makeTestApp();
    for (const name of ['A', 'B', 'C'])
      expect((await call<Channel>(app, 'POST', '/api/channels', { ...IN_APP, name })).status).toBe(200);
  });

  it('answers 400 ERR_BAD_REQUEST when the name derives a key already used in the app', async () => {
    const app = makeTestApp();
    const first = await callOk<Channel>(app, 'POST', '/api/channels', IN_APP);
    const res = await call<Channel>(app, 'POST', '/api/channels', { ...IN_APP, name: 'in-app alerts!' });
    expect(expectApiError(res, 400, 'ERR_BAD_REQUEST')).toMatchObject({
      devMessage:
        `A channel with key "in-app-alerts" already exists in this app (id ${first.id}); ` + 'choose another name.',
      details: { name: `derives key "in-app-alerts", already used by channel ${first.id}` },
    });
  });

  it('answers 400 ERR_BAD_REQUEST when the name has no letter or digit to build a key', async () => {
    const res = await call(makeTestApp(), 'POST', '/api/channels', { ...IN_APP, name: '!!!' });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('name');
  });
});

describe('GET /api/channels and /api/channels/{id}', () => {
  it("lists only the calling app's channels as a bare array", async () => {
    const app = makeTestApp();
    const a = (await call<Channel>(app, 'POST', '/api/channels', IN_APP, { appId: 'app-a' })).body;
    await callOk<Channel>(app, 'POST', '/api/channels', PUSH, { appId: 'app-b' });
    const res = await call<Channel[]>(app, 'GET', '/api/channels', undefined, { appId: 'app-a' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([a]);
  });

  it('gets one channel by id, and by key', async () => {
    const app = makeTestApp();
    const created = (await call<Channel>(app, 'POST', '/api/channels', IN_APP)).body;
    expect((await call<Channel>(app, 'GET', `/api/channels/${created.id}`)).body).toEqual(created);
    expect((await call(app, 'GET', '/v3/business-messaging/api/channels/in-app-alerts')).body).toEqual(created);
  });

  it("answers 404 ERR_NOT_FOUND for an unknown id and for another app's channel", async () => {
    const app = makeTestApp();
    const created = (await call<Channel>(app, 'POST', '/api/channels', IN_APP, { appId: 'app-a' })).body;
    expect(
      expectApiError(await call<Channel>(app, 'GET', '/api/channels/ffffffffffffffffffffffff'), 404, 'ERR_NOT_FOUND'),
    ).toMatchObject({
      message: 'The channel was not found.',
      devMessage: 'No channel with id or key "ffffffffffffffffffffffff" exists for this app.',
    });
    expectApiError(
      await call<Channel>(app, 'GET', `/api/channels/${created.id}`, undefined, { appId: 'app-b' }),
      404,
      'ERR_NOT_FOUND',
    );
  });
});

describe('PUT /api/channels/{id}', () => {
  it('updates name, enabled, templateType and config; the key stays and updatedAt advances', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const created = (await call<Channel>(app, 'POST', '/api/channels', IN_APP)).body;
    clock.advance(60_000);
    const res = await call<Channel>(app, 'PUT', `/api/channels/${created.id}`, {
      name: 'In-App Notifications',
      enabled: false,
      templateType: 'data',
      config: { x: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      name: 'In-App Notifications',
      key: 'in-app-alerts',
      enabled: false,
      templateType: 'data',
      config: { x: 1 },
    });
    expect(res.body.updatedAt).toBe('2030-01-01T00:01:00.000Z');
    expect(res.body.createdAt).toBe(created.createdAt);
    expect((await call<Channel>(app, 'GET', `/api/channels/${created.id}`)).body).toEqual(res.body);
  });

  it('accepts immutable fields echoed unchanged', async () => {
    const app = makeTestApp();
    const created = (await call<Channel>(app, 'POST', '/api/channels', IN_APP)).body;
    const res = await call<Channel>(app, 'PUT', `/api/channels/${created.id}`, {
      type: 'in_app',
      key: 'in-app-alerts',
      categoryFilter: false,
      name: 'X',
    });
    expect(res.status).toBe(200);
  });

  it('answers 400 ERR_BAD_REQUEST naming each immutable field that would change', async () => {
    const app = makeTestApp();
    const created = (await call<Channel>(app, 'POST', '/api/channels', IN_APP)).body;
    const res = await call<Channel>(app, 'PUT', `/api/channels/${created.id}`, {
      type: 'push',
      key: 'other',
      categoryFilter: true,
      templateLabel: true,
    });
    expect(expectApiError(res, 400, 'ERR_BAD_REQUEST')).toMatchObject({
      devMessage:
        'Cannot change type, key, categoryFilter, templateLabel of channel ' +
        `${created.id}: immutable after creation.`,
      details: {
        type: 'is immutable after creation',
        key: 'is immutable after creation',
        categoryFilter: 'is immutable after creation',
        templateLabel: 'is immutable after creation',
      },
    });
    expect(Object.keys(errorOf(res).details).sort()).toEqual(['categoryFilter', 'key', 'templateLabel', 'type']);
  });

  it('answers 400 ERR_BAD_REQUEST for ill-typed fields', async () => {
    const app = makeTestApp();
    const created = (await call<Channel>(app, 'POST', '/api/channels', IN_APP)).body;
    const res = await call<Channel>(app, 'PUT', `/api/channels/${created.id}`, { enabled: 'no', templateType: 'rich' });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(res).details).sort()).toEqual(['enabled', 'templateType']);
  });

  it("answers 404 ERR_NOT_FOUND for another app's channel", async () => {
    const app = makeTestApp();
    const created = (await call<Channel>(app, 'POST', '/api/channels', IN_APP, { appId: 'app-a' })).body;
    expectApiError(
      await call<Channel>(app, 'PUT', `/api/channels/${created.id}`, { name: 'Mine' }, { appId: 'app-b' }),
      404,
      'ERR_NOT_FOUND',
    );
  });
});

describe('GET /api/channels/availability', () => {
  it('reports limit and used for all six types, -1 meaning unlimited', async () => {
    const app = makeTestApp();
    await callOk<Channel>(app, 'POST', '/api/channels', IN_APP);
    await callOk<Channel>(app, 'POST', '/api/channels', { ...IN_APP, name: 'Second' });
    await callOk<Channel>(app, 'POST', '/api/channels', PUSH);
    await callOk<Channel>(app, 'POST', '/api/channels', IN_APP, { appId: 'other-app' });
    const res = await call<ChannelAvailability[]>(app, 'GET', '/api/channels/availability');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { type: 'in_app', limit: -1, used: 2 },
      { type: 'push', limit: 1, used: 1 },
      { type: 'sms', limit: 0, used: 0 },
      { type: 'email', limit: 0, used: 0 },
      { type: 'whatsapp', limit: 0, used: 0 },
      { type: 'custom', limit: 0, used: 0 },
    ]);
  });
});
