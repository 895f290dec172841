/**
 * fixtures/channels.json and template files with channelIds and rows: loaded at start,
 * checked together (problems name file and field), reloaded on change, seen through the API.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createApp, type EmulatorApp } from '../../src/index.js';
import { expectApiError, call, send, callOk } from '../helpers/app.js';
import type {
  Channel,
  ChannelAvailability,
  DeliveryPage,
  TemplateChannel,
  TemplateView,
} from '../helpers/api-types.js';

const IN_APP_ID = '664a1b2c3d4e5f6a7b8c9d0e';
const PUSH_ID = '664a1b2c3d4e5f6a7b8c9d0f';
const TEMPLATE_ID = '665b2c3d4e5f6a7b8c9d0e1f';

const CHANNELS = [
  {
    id: IN_APP_ID,
    name: 'In-App Alerts',
    key: 'in-app-alerts',
    type: 'in_app',
    templateType: 'ui',
    enabled: true,
    categoryFilter: false,
    templateLabel: false,
    config: {},
  },
  { id: PUSH_ID, name: 'Mobile Push', type: 'push', templateType: 'data' },
  { name: 'Shop Only', type: 'in_app', templateType: 'ui', appId: 'shop' },
];

const TEMPLATE = {
  id: TEMPLATE_ID,
  key: 'order-confirmation',
  name: 'Order Confirmation',
  status: 'approved',
  variableSchema: { customerName: { type: 'string' } },
  channelIds: [IN_APP_ID, PUSH_ID],
  rows: [
    { channelId: IN_APP_ID, channelType: 'in_app', content: { title: 'Thanks, {{customerName}}' } },
    {
      templateId: TEMPLATE_ID,
      channelId: PUSH_ID,
      channelType: 'push',
      content: { title: 'Your order', body: 'Thanks, {{customerName}}' },
      createdAt: '2024-01-15T09:30:00.000Z',
      updatedAt: '2024-01-15T09:30:00.000Z',
    },
  ],
};

const opened: EmulatorApp[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

function fixturesDir(channels: unknown, templates: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'emu-channels-'));
  mkdirSync(join(dir, 'templates'));
  if (channels !== undefined)
    writeFileSync(join(dir, 'channels.json'), typeof channels === 'string' ? channels : JSON.stringify(channels));
  for (const [name, t] of Object.entries(templates)) writeFileSync(join(dir, 'templates', name), JSON.stringify(t));
  return dir;
}

function open(dir: string, watch = false): EmulatorApp {
  const app = createApp({ fixturesDir: dir, watch, logLevel: 'silent' });
  opened.push(app);
  return app;
}

function startProblems(dir: string): string[] {
  try {
    open(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected the start to fail');
}

describe('fixtures/channels.json', () => {
  it("lists shared channels to every app with the caller's appId, app-scoped ones to their app only", async () => {
    const app = open(fixturesDir(CHANNELS));
    const a = await call<Channel[]>(app, 'GET', '/api/channels', undefined, { appId: 'any' });
    expect(a.body.map((c: { key: string }) => c.key)).toEqual(['in-app-alerts', 'mobile-push']);
    expect(a.body[1]).toMatchObject({
      id: PUSH_ID,
      appId: 'any',
      enabled: true,
      categoryFilter: false,
      templateLabel: false,
      config: {},
    });
    const shop = await call<Channel[]>(app, 'GET', '/api/channels', undefined, { appId: 'shop' });
    expect(shop.body.map((c: { key: string }) => c.key)).toEqual(['in-app-alerts', 'mobile-push', 'shop-only']);
    expect(shop.body[2]!.id).toMatch(/^[0-9a-f]{24}$/);
    // The derived id is the same on every start.
    const again = open(fixturesDir(CHANNELS));
    expect((await call<Channel>(again, 'GET', '/api/channels/shop-only', undefined, { appId: 'shop' })).body.id).toBe(
      shop.body[2]!.id,
    );
    expectApiError(
      await call<Channel>(app, 'GET', '/api/channels/shop-only', undefined, { appId: 'any' }),
      404,
      'ERR_NOT_FOUND',
    );
  });

  it('keeps the createdAt and updatedAt a channel was pulled with, else stamps the load time', async () => {
    const pulled = { ...CHANNELS[0], createdAt: '2024-01-15T10:30:00+01:00', updatedAt: '2024-02-01T00:00:00Z' };
    const app = open(fixturesDir([pulled, CHANNELS[1]]));
    const kept = await call<Channel>(app, 'GET', `/api/channels/${IN_APP_ID}`);
    expect(kept.body).toMatchObject({ createdAt: '2024-01-15T09:30:00.000Z', updatedAt: '2024-02-01T00:00:00.000Z' });
    const stamped = await call<Channel>(app, 'GET', `/api/channels/${PUSH_ID}`);
    expect(Date.parse(stamped.body.createdAt)).toBeGreaterThan(Date.parse('2025-01-01'));
  });

  it('counts fixture channels in availability and limits; PUT stores the calling app’s own copy', async () => {
    const app = open(fixturesDir(CHANNELS));
    const availability = await call<ChannelAvailability>(app, 'GET', '/api/channels/availability');
    expect(availability.body).toContainEqual({ type: 'push', limit: 1, used: 1 });
    const second = await call<Channel>(app, 'POST', '/api/channels', {
      name: 'Push 2',
      type: 'push',
      templateType: 'data',
    });
    expectApiError(second, 400, 'ERR_BAD_REQUEST');
    const clash = await call<Channel>(app, 'POST', '/api/channels', {
      name: 'In-App Alerts',
      type: 'in_app',
      templateType: 'ui',
    });
    expectApiError(clash, 400, 'ERR_BAD_REQUEST');

    const put = await call<Channel>(
      app,
      'PUT',
      `/api/channels/${PUSH_ID}`,
      { enabled: false, name: 'Muted' },
      { appId: 'a' },
    );
    expect(put.body).toMatchObject({ id: PUSH_ID, key: 'mobile-push', appId: 'a', enabled: false, name: 'Muted' });
    const listA = await call<Channel[]>(app, 'GET', '/api/channels', undefined, { appId: 'a' });
    expect(listA.body.map((c: { name: string }) => c.name)).toEqual(['In-App Alerts', 'Muted']);
    const listB = await call<Channel[]>(app, 'GET', '/api/channels', undefined, { appId: 'b' });
    expect(listB.body.map((c: { name: string }) => c.name)).toEqual(['In-App Alerts', 'Mobile Push']);
  });

  it('links a template to fixture channels and renders from its rows', async () => {
    const app = open(fixturesDir(CHANNELS, { 'order.json': TEMPLATE }));
    const t = await call<TemplateView>(app, 'GET', `/api/templates/${TEMPLATE_ID}`);
    expect(t.body).toMatchObject({ channelIds: [IN_APP_ID, PUSH_ID], channels: ['in_app', 'push'] });
    // The ids it names, not every channel of its types: app "shop" has an in_app channel of its own too.
    const forShop = await call<TemplateView>(app, 'GET', `/api/templates/${TEMPLATE_ID}`, undefined, { appId: 'shop' });
    expect(forShop.body.channelIds).toEqual([IN_APP_ID, PUSH_ID]);
    const rows = await call<TemplateChannel[]>(app, 'GET', `/api/template-channels?templateId=${TEMPLATE_ID}`);
    expect(rows.body.map((r: { channelId: string; content: object }) => [r.channelId, r.content])).toEqual([
      [IN_APP_ID, { title: 'Thanks, {{customerName}}' }],
      [PUSH_ID, { title: 'Your order', body: 'Thanks, {{customerName}}' }],
    ]);
    const res = await send(app, {
      template: { key: 'order-confirmation', variables: { customerName: 'Ada' } },
      targets: ['u1'],
      mode: 'realtime',
    });
    expect(res.body.channels).toEqual(['in_app', 'push']);
    const [delivery] = (await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries')).body.items;
    expect(delivery!.rendered).toEqual({
      in_app: { title: 'Thanks, Ada' },
      push: { title: 'Your order', body: 'Thanks, Ada' },
    });
  });

  it("an app's row made through the API wins over the fixture row, for that app only", async () => {
    const app = open(fixturesDir(CHANNELS, { 'order.json': TEMPLATE }));
    const path = `/api/template-channels/${TEMPLATE_ID}/${PUSH_ID}`;
    await callOk(app, 'PUT', path, { content: { title: 'Mine', body: '{{customerName}}' } }, { appId: 'a' });
    const body = {
      template: { id: TEMPLATE_ID, variables: { customerName: 'Ada' } },
      targets: ['u'],
      mode: 'realtime',
    };
    await send(app, body, { appId: 'a' });
    await send(app, body, { appId: 'b' });
    const pushOf = async (appId: string) =>
      (await call<DeliveryPage>(app, 'GET', `/__inspect/deliveries?appId=${appId}`)).body.items[0]!.rendered.push;
    expect(await pushOf('a')).toEqual({ title: 'Mine', body: 'Ada' });
    expect(await pushOf('b')).toEqual({ title: 'Your order', body: 'Thanks, Ada' });
  });

  it("derives a linked channel's row from the template's content when fixture rows cover the others", async () => {
    const template = {
      ...TEMPLATE,
      rows: TEMPLATE.rows.slice(0, 1),
      content: { push: { title: 'From content' } },
    };
    const app = createApp({ channels: CHANNELS, templates: [template], logLevel: 'silent' });
    opened.push(app);
    const rows = await callOk<TemplateChannel[]>(app, 'GET', `/api/template-channels?templateId=${TEMPLATE_ID}`);
    expect(rows.map((r) => [r.channelId, r.content])).toEqual([
      [IN_APP_ID, { title: 'Thanks, {{customerName}}' }],
      [PUSH_ID, { title: 'From content' }],
    ]);
  });

  it('takes channels and templates inline through createApp', async () => {
    const app = createApp({ channels: CHANNELS, templates: [TEMPLATE], logLevel: 'silent' });
    opened.push(app);
    expect((await call<Channel[]>(app, 'GET', '/api/channels')).headers.get('x-total-count')).toBe('2');
    expect(() => createApp({ channels: [{ name: 'x' }], templates: [], logLevel: 'silent' })).toThrow(
      /options\.channels: field "0\.type"/,
    );
  });
});

describe('fixture problems stop the start, naming file and field', () => {
  it('a bad channels.json', () => {
    const problems = startProblems(
      fixturesDir([{ name: 'A', type: 'pager', templateType: 'ui' }, { type: 'in_app' }, CHANNELS[0], CHANNELS[0]]),
    );
    const text = problems.join('\n');
    expect(text).toMatch(/channels\.json: field "0\.type": is required: one of in_app/);
    expect(text).toMatch(/channels\.json: field "1\.name"/);
    expect(text).toMatch(/channels\.json: field "1\.templateType"/);
    expect(problems.join('\n')).not.toMatch(/field "3\.id"/); // shape problems first: no half-checked duplicates
    expect(startProblems(fixturesDir('{ nope'))[0]).toMatch(/channels\.json: not valid JSON/);
    expect(startProblems(fixturesDir({}))[0]).toMatch(/channels\.json: field "\(root\)"/);
  });

  it('a key shared and app-scoped at once, and the same id in two scopes', () => {
    const problems = startProblems(
      fixturesDir([
        CHANNELS[0],
        { ...CHANNELS[0], id: undefined, appId: 'shop' },
        { ...CHANNELS[1], appId: 'x' },
        CHANNELS[1],
      ]),
    ).join('\n');
    expect(problems).toMatch(/channels\.json: field "1\.key": key "in-app-alerts" is defined twice for shop/);
    expect(problems).toMatch(/channels\.json: field "3\.id": id "664a1b2c3d4e5f6a7b8c9d0f" is defined twice/);
  });

  it('a channel id or key defined twice', () => {
    const problems = startProblems(fixturesDir([CHANNELS[0], { ...CHANNELS[0], key: 'other' }, CHANNELS[1]]));
    expect(problems).toEqual([
      expect.stringMatching(/channels\.json: field "1\.id": id "664a1b2c3d4e5f6a7b8c9d0e" is defined twice/),
    ]);
  });

  it('rows and channelIds that do not fit the channels', () => {
    const bad = {
      ...TEMPLATE,
      channelIds: [IN_APP_ID, 'ffffffffffffffffffffffff'],
      rows: [
        { channelId: PUSH_ID, content: {} },
        { channelId: IN_APP_ID, channelType: 'push', content: {} },
        { channelId: IN_APP_ID, content: {} },
        { channelId: IN_APP_ID, templateId: 'someone-else', content: {} },
      ],
    };
    const problems = startProblems(fixturesDir(CHANNELS, { 'bad.json': [bad] })).join('\n');
    expect(problems).toMatch(/bad\.json: field "0\.channelIds\.1": no channel "ffffffffffffffffffffffff"/);
    expect(problems).toMatch(
      /bad\.json: field "0\.rows\.0\.channelId": channel "664a1b2c3d4e5f6a7b8c9d0f" is not one of/,
    );
    expect(problems).toMatch(/bad\.json: field "0\.rows\.1\.channelType": is "push" but channel/);
    expect(problems).toMatch(/bad\.json: field "0\.rows\.2\.channelId": a second row/);
    expect(problems).toMatch(/bad\.json: field "0\.rows\.3\.templateId": "someone-else" is not this template's id/);
  });

  it("a shared template cannot use an app's channel; that app's template can", () => {
    const shopChannel = '0123456789abcdef01234567';
    const channels = [...CHANNELS.slice(0, 2), { ...CHANNELS[2], id: shopChannel }];
    const shared = { key: 'shared', channelIds: [shopChannel] };
    expect(startProblems(fixturesDir(channels, { 's.json': shared }))[0]).toMatch(
      /s\.json: field "channelIds\.0": no channel "0123456789abcdef01234567" in channels\.json \(shared/,
    );
    const app = open(fixturesDir(channels, { 's.json': { ...shared, appId: 'shop' } }));
    expect(app.emulator.templates.findByKey('shop', 'shared')?.channels).toEqual(['in_app']);
  });
});

describe('reloading channels.json', () => {
  it('reloads channels with the templates on a change, keeping the last good set after a bad edit', async () => {
    const dir = fixturesDir(CHANNELS.slice(0, 1));
    const app = open(dir, true);
    const count = async () => Number((await call<Channel[]>(app, 'GET', '/api/channels')).headers.get('x-total-count'));
    const until = async (n: number) => {
      for (let i = 0; i < 100 && (await count()) !== n; i++) await new Promise((r) => setTimeout(r, 50));
      return count();
    };
    expect(await count()).toBe(1);
    writeFileSync(join(dir, 'channels.json'), JSON.stringify(CHANNELS.slice(0, 2)));
    expect(await until(2)).toBe(2);
    writeFileSync(join(dir, 'channels.json'), '[{ broken');
    await new Promise((r) => setTimeout(r, 400));
    expect(await count()).toBe(2);
  });
});
