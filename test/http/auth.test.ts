/**
 * Authentication and app scoping (docs/reference.md#authentication-and-apps): strict mode from options, apps.json and
 * EMULATOR_APPS; open mode; the production Host check; each app sees only its own data.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createApp,
  loadConfig,
  type EmulatorApp,
  type Delivery,
  type Health,
  type NotificationRecord,
} from '../../src/index.js';
import {
  TEST_TEMPLATES,
  expectApiError,
  makeTestApp,
  sendOk,
  type List,
  errorOf,
  renderedTitle,
  call,
  send,
} from '../helpers/app.js';

const plain = { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' };
const opened: EmulatorApp[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

describe('strict mode from the apps option', () => {
  const app = makeTestApp({
    apps: [
      { appId: 'shop', apiKey: 's3cret' },
      { appId: 'blog', apiKey: 'b-key' },
    ],
  });

  it('accepts a configured pair', async () => {
    expect((await send(app, plain, { appId: 'shop', apiKey: 's3cret' })).status).toBe(200);
    expect((await send(app, plain, { appId: 'blog', apiKey: 'b-key' })).status).toBe(200);
  });

  it.each([
    ['missing appid', { appId: '', apiKey: 's3cret' }],
    ['missing apikey', { appId: 'shop', apiKey: '' }],
    ['both missing', { appId: '', apiKey: '' }],
    ['unknown appid', { appId: 'other', apiKey: 's3cret' }],
    ['wrong apikey', { appId: 'shop', apiKey: 'nope' }],
    ["another app's key", { appId: 'shop', apiKey: 'b-key' }],
  ])('answers 401 ERR_UNAUTHORIZED for %s', async (_what, creds) => {
    expectApiError(await send(app, plain, creds), 401, 'ERR_UNAUTHORIZED');
  });

  it('says the key is wrong for a known app, never printing the expected key', async () => {
    const res = await send(app, plain, { appId: 'shop', apiKey: 'b-key' });
    expectApiError(res, 401, 'ERR_UNAUTHORIZED');
    expect(errorOf(res).message).toBe('Authentication failed: wrong apikey for this app.');
    expect(errorOf(res).devMessage).toBe('The apikey is wrong for app "shop" (strict mode).');
    expect(errorOf(res).details).toEqual({ apikey: 'is not the key configured for app "shop"' });
    expect(JSON.stringify(res.body)).not.toContain('s3cret');
  });

  it('says an unknown app is not configured', async () => {
    const res = await send(app, plain, { appId: 'other', apiKey: 's3cret' });
    expect(errorOf(res).message).toBe('Authentication failed: unknown appid.');
    expect(errorOf(res).devMessage).toMatch(/^No app "other" is configured \(strict mode/);
    expect(JSON.stringify(res.body)).not.toContain('s3cret');
  });

  it('names the missing headers in details', async () => {
    const res = await send(app, plain, { appId: '', apiKey: '' });
    expect(Object.keys(errorOf(res).details).sort()).toEqual(['apikey', 'appid']);
  });

  it('reports strict mode in /__health', async () => {
    const { body } = await call<Health>(app, 'GET', '/__health');
    expect(body).toMatchObject({ auth: 'strict', apps: 2 });
  });
});

describe('strict mode from fixtures/apps.json and EMULATOR_APPS', () => {
  it('reads fixtures/apps.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-apps-'));
    mkdirSync(join(dir, 'templates'));
    writeFileSync(join(dir, 'templates', 't.json'), JSON.stringify(TEST_TEMPLATES[1]));
    writeFileSync(join(dir, 'apps.json'), JSON.stringify([{ appId: 'filed', apiKey: 'fk', region: 'eu' }]));
    const app = createApp({ fixturesDir: dir, watch: false, logLevel: 'silent' });
    opened.push(app);
    expect((await call<Health>(app, 'GET', '/__health')).body.auth).toBe('strict');
    expect((await send(app, plain, { appId: 'filed', apiKey: 'fk' })).status).toBe(200);
    expectApiError(await send(app, plain, { appId: 'filed', apiKey: 'x' }), 401, 'ERR_UNAUTHORIZED');
  });

  it('reads EMULATOR_APPS through loadConfig', async () => {
    const command = loadConfig([], { EMULATOR_APPS: 'one:k1, two:k2:eu' });
    if (command.kind !== 'serve') throw new Error('expected serve');
    const app = createApp({ ...command.options, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    opened.push(app);
    expect((await call<Health>(app, 'GET', '/__health')).body.auth).toBe('strict');
    expect((await send(app, plain, { appId: 'two', apiKey: 'k2' })).status).toBe(200);
    expectApiError(await send(app, plain, { appId: 'two', apiKey: 'k1' }), 401, 'ERR_UNAUTHORIZED');
  });
});

describe('open mode', () => {
  it('accepts any non-empty pair and reports open in /__health', async () => {
    const app = makeTestApp();
    expect((await send(app, plain, { appId: 'anything', apiKey: 'goes' })).status).toBe(200);
    expect((await send(app, plain, { appId: 'another', apiKey: 'x' })).status).toBe(200);
    expect((await call<Health>(app, 'GET', '/__health')).body).toMatchObject({ auth: 'open', apps: 2 });
  });

  it('still answers 401 for a missing or blank header', async () => {
    const app = makeTestApp();
    expectApiError(await send(app, plain, { appId: '' }), 401, 'ERR_UNAUTHORIZED');
    expectApiError(await send(app, plain, { apiKey: '' }), 401, 'ERR_UNAUTHORIZED');
    expectApiError(await send(app, plain, { appId: '   ' }), 401, 'ERR_UNAUTHORIZED');
  });

  it('control paths need no appid/apikey', async () => {
    const app = makeTestApp();
    expect((await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries')).status).toBe(200);
  });
});

describe('production Host header', () => {
  const app = makeTestApp();
  it('accepts a Host whose app ID equals the appid header', async () => {
    const res = await send(app, plain, { appId: 'shop', headers: { host: 'shop.api-us.example.com' } });
    expect(res.status).toBe(200);
  });

  it('answers 401 when the Host names another app', async () => {
    const res = await send(app, plain, { appId: 'shop', headers: { host: 'blog.api-eu.example.com' } });
    expectApiError(res, 401, 'ERR_UNAUTHORIZED');
    expect(errorOf(res).details).toHaveProperty('appid');
  });

  it('ignores a Host of another shape', async () => {
    expect((await send(app, plain, { appId: 'shop', headers: { host: 'localhost:4010' } })).status).toBe(200);
  });

  it('accepts any region in open mode (no region is configured there)', async () => {
    for (const host of ['shop.api-us.example.com', 'shop.api-eu.example.com', 'shop.api-in.example.com'])
      expect((await send(app, plain, { appId: 'shop', headers: { host } })).status, host).toBe(200);
  });
});

describe('production Host header: region of a configured app', () => {
  const strict = makeTestApp({
    apps: [
      { appId: 'shop', apiKey: 's3cret', region: 'eu' },
      { appId: 'blog', apiKey: 'b-key' },
    ],
  });
  const shop = (host: string) => send(strict, plain, { appId: 'shop', apiKey: 's3cret', headers: { host } });

  it('accepts the configured region, in any case', async () => {
    expect((await shop('shop.api-eu.example.com')).status).toBe(200);
    expect((await shop('shop.api-EU.example.com')).status).toBe(200);
  });

  it('answers 401 naming both regions when the Host names another one', async () => {
    const res = await shop('shop.api-us.example.com');
    expectApiError(res, 401, 'ERR_UNAUTHORIZED');
    expect(errorOf(res).devMessage).toBe('The Host names region "us" but app "shop" is configured in region "eu".');
    expect(errorOf(res).details).toEqual({ host: 'region must be "eu" for app "shop" (got "us")' });
  });

  it('checks the app before the region, and the key before the region', async () => {
    expect(
      errorOf(await send(strict, plain, { appId: 'shop', apiKey: 'x', headers: { host: 'shop.api-us.x.io' } }))
        .devMessage,
    ).toMatch(/apikey is wrong/);
  });

  it('accepts any region for an app configured without one', async () => {
    const res = await send(strict, plain, {
      appId: 'blog',
      apiKey: 'b-key',
      headers: { host: 'blog.api-in.example.com' },
    });
    expect(res.status).toBe(200);
  });

  it('takes the region from EMULATOR_APPS=app:key:region', async () => {
    const command = loadConfig([], { EMULATOR_APPS: 'two:k2:eu' });
    if (command.kind !== 'serve') throw new Error('expected serve');
    const app = createApp({ ...command.options, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    opened.push(app);
    const host = (h: string) => send(app, plain, { appId: 'two', apiKey: 'k2', headers: { host: h } });
    expect((await host('two.api-eu.example.com')).status).toBe(200);
    expectApiError(await host('two.api-us.example.com'), 401, 'ERR_UNAUTHORIZED');
  });
});

describe('app scoping', () => {
  it('app-scoped templates are invisible to other apps (404)', async () => {
    const app = makeTestApp({
      templates: [
        ...TEST_TEMPLATES,
        { key: 'shop-only', appId: 'shop', variableSchema: [], content: { in_app: { title: 'S' } } },
      ],
    });
    const body = { template: { key: 'shop-only' }, targets: ['u'], mode: 'realtime' };
    expect((await send(app, body, { appId: 'shop' })).status).toBe(200);
    expectApiError(await send(app, body, { appId: 'blog' }), 404, 'ERR_NOT_FOUND');
  });

  it('an app-scoped template with a shared key wins for its own app only', async () => {
    const app = makeTestApp({
      templates: [
        ...TEST_TEMPLATES,
        { key: 'plain', appId: 'shop', variableSchema: [], content: { in_app: { title: 'Shop hello' } } },
      ],
    });
    await sendOk(app, plain, { appId: 'shop' });
    await sendOk(app, plain, { appId: 'blog' });
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries');
    const titles = Object.fromEntries(body.items.map((d) => [d.appId, renderedTitle(d)]));
    expect(titles).toEqual({ shop: 'Shop hello', blog: 'Hello' });
  });

  it('records each delivery under its app', async () => {
    const app = makeTestApp();
    await sendOk(app, plain, { appId: 'shop' });
    await sendOk(app, { ...plain, targets: ['u2'] }, { appId: 'blog' });
    const shop = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?appId=shop');
    expect(shop.body.items.map((d) => d.userId)).toEqual(['u1']);
    const blog = await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications?appId=blog');
    expect(blog.body.total).toBe(1);
  });
});

describe('admin token on the control plane', () => {
  const app = makeTestApp({ adminToken: 'tok' });

  it('answers 401 ERR_UNAUTHORIZED on /__ paths without the bearer token', async () => {
    expectApiError(await call<Health>(app, 'GET', '/__health'), 401, 'ERR_UNAUTHORIZED');
    expectApiError(
      await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries', undefined, {
        headers: { authorization: 'Bearer nope' },
      }),
      401,
      'ERR_UNAUTHORIZED',
    );
  });

  it('reads the scheme in any case and the token without surrounding spaces, but not another token', async () => {
    for (const authorization of ['bearer tok', 'BEARER tok', 'Bearer   tok ', 'Bearer\ttok'])
      expect((await call<Health>(app, 'GET', '/__health', undefined, { headers: { authorization } })).status).toBe(200);
    for (const authorization of ['Bearer tok2', 'Bearer to k', 'Basic tok', 'Bearertok', 'tok'])
      expectApiError(
        await call<Health>(app, 'GET', '/__health', undefined, { headers: { authorization } }),
        401,
        'ERR_UNAUTHORIZED',
      );
  });

  it('serves /__ paths with the token, and the API needs none', async () => {
    expect(
      (await call<Health>(app, 'GET', '/__health', undefined, { headers: { authorization: 'Bearer tok' } })).status,
    ).toBe(200);
    expect((await send(app, plain)).status).toBe(200);
  });
});
