/**
 * `pull` and `check-fixtures` against a second emulator playing the live account: the pulled
 * fixtures load in a fresh emulator and render what the live account renders; a re-pull
 * changes no byte; each kind of drift is reported with the right exit code; the key shows up
 * in no output and no file.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, startEmulator } from '../../src/index.js';
import type { Channel, DeliveryPage, TemplateView } from '../helpers/api-types.js';
import type { ErrorBody } from '../helpers/app.js';
import {
  allFileTexts,
  checkFixtures,
  folderSnapshot,
  LIVE_KEY,
  printed,
  pull,
  startLiveAccount,
  tempDir,
  type LiveAccount,
  type LiveApi,
} from '../helpers/live-account.js';

/** Where this file's output starts in `printed` (files before it in the worker printed too). */
const FIRST_PRINTED = printed.length;

const APPS = ['render', 'repull', 'words', 'auth', ...Array.from({ length: 24 }, (_, i) => `drift-${i}`)];
let live: LiveAccount;
const root = tempDir('pull-test-');
// An empty scenarios folder: the emulators here load no scenario (a named folder must exist).
mkdirSync(join(root, 'no-scenarios'));

beforeAll(async () => {
  live = await startLiveAccount(APPS);
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await live?.close();
});

interface Seeded {
  inbox: Channel;
  push: Channel;
  shipped: TemplateView;
  welcome: TemplateView;
  sale: TemplateView;
  newsletter: TemplateView;
}

/** Per-channel content through the template-channel rows: a new row, or a PUT of the existing one. */
async function setContent(
  api: LiveApi,
  channels: { inbox: Channel; push: Channel },
  template: TemplateView,
  content: Record<string, unknown>,
): Promise<void> {
  for (const [type, body] of Object.entries(content)) {
    const channel = type === 'push' ? channels.push : channels.inbox;
    const put = await api.call('PUT', `/api/template-channels/${template.id}/${channel.id}`, { content: body });
    if (put.status === 404) {
      await api.ok('POST', '/api/template-channels', {
        templateId: template.id,
        channelId: channel.id,
        channelType: type,
        content: body,
      });
    } else expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
}

/** An account with two channels, two approved templates, a draft and an archived one. */
async function seed(api: LiveApi): Promise<Seeded> {
  const inbox = await api.ok<Channel>('POST', '/api/channels', {
    name: 'App inbox',
    type: 'in_app',
    templateType: 'ui',
  });
  const push = await api.ok<Channel>('POST', '/api/channels', {
    name: 'Mobile Push',
    type: 'push',
    templateType: 'data',
  });
  const shipped = await api.ok<TemplateView>('POST', '/api/templates', {
    name: 'Order Shipped',
    category: 'transactional',
    channelIds: [inbox.id, push.id],
    variableSchema: {
      customerName: { type: 'string' },
      orderId: { type: 'string' },
      trackingUrl: { type: 'action' },
      banner: { type: 'image', required: false },
    },
  });
  await setContent(api, { inbox, push }, shipped, {
    in_app: {
      title: 'On its way, {{customerName}}!',
      body: 'Order {{orderId}} has shipped.',
      image: '{{banner}}',
      button: { label: 'Track', action: '{{trackingUrl}}' },
    },
    push: { title: 'Order {{orderId}} shipped', body: 'Tap to track it.' },
  });
  await api.ok('PUT', `/api/templates/${shipped.id}`, { status: 'approved' });
  const welcome = await api.ok<TemplateView>('POST', '/api/templates', {
    name: 'Welcome Message',
    channelIds: [inbox.id],
    variableSchema: { userName: { type: 'string' } },
  });
  await setContent(api, { inbox, push }, welcome, {
    in_app: { title: 'Welcome, {{userName}}', body: 'Glad you are here.' },
  });
  await api.ok('PUT', `/api/templates/${welcome.id}`, { status: 'approved' });
  const sale = await api.ok<TemplateView>('POST', '/api/templates', {
    name: 'Spring Sale',
    channelIds: [inbox.id],
    variableSchema: { name: { type: 'string' } },
  });
  await setContent(api, { inbox, push }, sale, { in_app: { title: 'Spring is here, {{name}}' } });
  const newsletter = await api.ok<TemplateView>('POST', '/api/templates', {
    name: 'Old Newsletter',
    channelIds: [inbox.id],
  });
  await setContent(api, { inbox, push }, newsletter, { in_app: { title: 'Our newsletter' } });
  await api.ok('PUT', `/api/templates/${newsletter.id}`, { status: 'archived' });
  return { inbox, push, shipped, welcome, sale, newsletter };
}

const pullArgs = (appId: string, out: string) => ['--app-id', appId, '--base-url', live.url, '--out', out];
const checkArgs = (appId: string, dir: string, json = true) => [
  '--app-id',
  appId,
  '--base-url',
  live.url,
  '--fixtures',
  dir,
  ...(json ? ['--json'] : []),
];

describe('pull', () => {
  it('writes fixtures that load in a fresh emulator and render the same content for the same send', async () => {
    const api = live.api('render');
    await seed(api);
    const out = join(root, 'render', 'fixtures');
    const res = await pull(pullArgs('render', out));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/wrote 4 template\(s\), 2 channel\(s\)/);
    expect(res.stderr).toBe(''); // no warning: the fixtures hold the account exactly
    expect(Object.keys(folderSnapshot(out)).sort()).toEqual([
      'channels.json',
      'templates/old-newsletter.json',
      'templates/order-shipped.json',
      'templates/spring-sale.json',
      'templates/welcome-message.json',
    ]);
    const shippedFile = readFileSync(join(out, 'templates', 'order-shipped.json'), 'utf8');
    expect(shippedFile.endsWith('}\n')).toBe(true);
    expect(shippedFile).toContain('\n  "rows": [\n    {\n      "channelId": ');
    const parsed = JSON.parse(shippedFile);
    expect(Object.keys(parsed)).toEqual([...Object.keys(parsed)].sort());
    expect(parsed.variableSchema.banner).toEqual({ name: 'banner', required: false, type: 'image' });
    expect(parsed.channelIds).toHaveLength(2);
    expect(parsed.rows.map((r: { channelType: string }) => r.channelType)).toEqual(['in_app', 'push']);
    expect(parsed.rows[1].content).toEqual({ body: 'Tap to track it.', title: 'Order {{orderId}} shipped' });
    const channelsFile = JSON.parse(readFileSync(join(out, 'channels.json'), 'utf8'));
    expect(channelsFile.map((c: { key: string }) => c.key)).toEqual(['app-inbox', 'mobile-push']);
    expect(channelsFile[0]).not.toHaveProperty('config');

    const fresh = createApp({
      fixturesDir: out,
      scenariosDir: join(root, 'no-scenarios'),
      watch: false,
      logLevel: 'silent',
    });
    const sendTo = async (target: 'live' | 'fresh', body: unknown) => {
      const headers = { appid: 'render', apikey: LIVE_KEY, 'content-type': 'application/json' };
      const init = { method: 'POST', headers, body: JSON.stringify(body) };
      const response =
        target === 'live'
          ? await fetch(`${live.url}/api/notifications/send`, init)
          : await fresh.request('/api/notifications/send', init);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const deliveriesOf = async (target: 'live' | 'fresh', userId: string) => {
      const path = `/__inspect/deliveries?appId=render&userId=${userId}`;
      const response = target === 'live' ? await fetch(`${live.url}${path}`) : await fresh.request(path);
      return ((await response.json()) as DeliveryPage).items;
    };
    const sends = [
      {
        template: {
          key: 'order-shipped',
          variables: {
            customerName: 'Ada',
            orderId: 'A-1001',
            trackingUrl: { type: 'web', data: 'https://shop.example/t/A-1001' },
            banner: { url: 'https://cdn.example/b.png', width: 10, height: 10 },
          },
        },
        targets: ['user-1'],
        mode: 'realtime',
      },
      { template: { key: 'welcome-message', variables: { userName: 'Bo' } }, targets: ['user-2'], mode: 'realtime' },
    ];
    for (const body of sends) {
      const a = await sendTo('live', body);
      const b = await sendTo('fresh', body);
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(b.status, JSON.stringify(b.body)).toBe(200);
      const strip = ({ notificationId: _n, createdAt: _c, ...rest }: Record<string, unknown>) => rest;
      expect(strip(b.body)).toEqual(strip(a.body));
    }
    for (const userId of ['user-1', 'user-2']) {
      const [a] = await deliveriesOf('live', userId);
      const [b] = await deliveriesOf('fresh', userId);
      expect(b!.rendered).toEqual(a!.rendered);
      expect(b!.templateId).toBe(a!.templateId);
      expect(b!.channels).toEqual(a!.channels);
    }
    // Refusals match too: missing required variable, draft, archived.
    for (const body of [
      { template: { key: 'order-shipped', variables: { customerName: 'Ada' } }, targets: ['u'], mode: 'realtime' },
      { template: { key: 'spring-sale', variables: { name: 'x' } }, targets: ['u'], mode: 'realtime' },
      { template: { key: 'old-newsletter', variables: {} }, targets: ['u'], mode: 'realtime' },
    ]) {
      const a = await sendTo('live', body);
      const b = await sendTo('fresh', body);
      expect(a.status).toBe(400);
      const codeOf = (answer: { body: Record<string, unknown> }) => (answer.body as unknown as ErrorBody).error.code;
      expect([b.status, codeOf(b)]).toEqual([a.status, codeOf(a)]);
    }
  });

  it('re-pulls an unchanged account without touching a byte, and a changed one file by file', async () => {
    const api = live.api('repull');
    const seeded = await seed(api);
    const out = join(root, 'repull', 'fixtures');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'apps.json'), '[]\n');
    expect((await pull(pullArgs('repull', out))).code).toBe(0);
    writeFileSync(join(out, 'templates', 'NOTES.md'), 'kept by pull\n');
    const before = folderSnapshot(out);

    const again = await pull(pullArgs('repull', out));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/already matches the live account .*nothing changed/);
    expect(folderSnapshot(out)).toEqual(before);
    const check = await checkFixtures(checkArgs('repull', out, false));
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/matches the live account \(4 template\(s\)\)/);

    await setContent(api, seeded, seeded.welcome, {
      in_app: { title: 'Hello, {{userName}}', body: 'Glad you are here.' },
    });
    await api.ok('DELETE', `/api/templates/${seeded.newsletter.id}`);
    const changed = await pull(pullArgs('repull', out));
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain('~ templates/welcome-message.json');
    expect(changed.stdout).toContain('- templates/old-newsletter.json');
    const after = folderSnapshot(out);
    expect(after['templates/old-newsletter.json']).toBeUndefined();
    expect(after['templates/welcome-message.json']!.text).toContain('Hello, {{userName}}');
    for (const path of ['apps.json', 'templates/NOTES.md', 'templates/order-shipped.json', 'channels.json']) {
      expect(after[path]?.text, path).toBe(before[path]!.text);
    }
    expect(Object.keys(after).some((p) => p.startsWith('.pull-'))).toBe(false);
  });
});

/** A source emulator on the bundled fixture templates, with one strict app to pull from. */
const startBundledSource = (appId: string) =>
  startEmulator({
    port: 0,
    fixturesDir: join(process.cwd(), 'fixtures'),
    scenariosDir: join(root, 'no-scenarios'),
    logLevel: 'silent',
    watch: false,
    apps: [{ appId, apiKey: LIVE_KEY, region: 'us' }],
  });

describe('pull from an emulator with fixture templates and no channels', () => {
  it('keeps content by channel type, and the result checks clean', async () => {
    const source = await startBundledSource('bundled');
    try {
      const out = join(root, 'bundled', 'fixtures');
      const args = ['--app-id', 'bundled', '--base-url', source.url, '--out', out];
      const res = await pull(args);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('');
      const file = JSON.parse(readFileSync(join(out, 'templates', 'order-confirmation.json'), 'utf8'));
      expect(file.channels).toEqual(['in_app', 'push']);
      expect(file.content.push).toEqual({
        body: 'Hi {{customerName}}, we have your order.',
        title: 'Order {{orderId}} confirmed',
      });
      expect(file).not.toHaveProperty('rows');
      const check = await checkFixtures(['--app-id', 'bundled', '--base-url', source.url, '--fixtures', out]);
      expect([check.code, check.stdout]).toEqual([0, expect.stringContaining('matches the live account')]);
    } finally {
      await source.close();
    }
  });

  it('pulls every type a template is delivered on, beyond its linked channels, and checks channels', async () => {
    const source = await startBundledSource('inbox-only');
    try {
      // The account has an in_app channel and no push channel: order-confirmation goes out on both.
      const headers = { appid: 'inbox-only', apikey: LIVE_KEY, 'content-type': 'application/json' };
      const post = (path: string, body: unknown) =>
        fetch(`${source.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect((await post('/api/channels', { name: 'App inbox', type: 'in_app', templateType: 'ui' })).status).toBe(200);
      const order = {
        key: 'order-confirmation',
        variables: { customerName: 'Ada', orderId: 'A1', cta: { type: 'web', data: 'x' } },
      };
      const liveSend = await post('/api/notifications/send', { template: order, targets: ['u1'], mode: 'realtime' });
      expect(((await liveSend.json()) as { channels: string[] }).channels).toEqual(['in_app', 'push']);

      const out = join(root, 'inbox-only', 'fixtures');
      const args = ['--app-id', 'inbox-only', '--base-url', source.url, '--out', out];
      expect((await pull(args)).code).toBe(0);
      const file = JSON.parse(readFileSync(join(out, 'templates', 'order-confirmation.json'), 'utf8'));
      expect(file.channels).toEqual(['in_app', 'push']);
      expect(file.content.push).toMatchObject({ title: 'Order {{orderId}} confirmed' });
      const check = await checkFixtures(['--app-id', 'inbox-only', '--base-url', source.url, '--fixtures', out]);
      expect([check.code, check.stdout]).toEqual([0, expect.stringContaining('matches the live account')]);

      const local = createApp({ fixturesDir: out, logLevel: 'silent', watch: false });
      const sent = await local.request('/api/notifications/send', {
        method: 'POST',
        headers: { appid: 'inbox-only', apikey: 'any', 'content-type': 'application/json' },
        body: JSON.stringify({ template: order, targets: ['u1'], mode: 'realtime' }),
      });
      const sentBody = (await sent.json()) as { channels: string[] };
      expect(sentBody.channels, JSON.stringify(sentBody)).toEqual(['in_app', 'push']);
      await local.close();

      // Fixtures that lose push: a breaking difference.
      writeFileSync(
        join(out, 'templates', 'order-confirmation.json'),
        JSON.stringify({ ...file, channels: ['in_app'], content: {} }),
      );
      const drift = await checkFixtures([
        '--app-id',
        'inbox-only',
        '--base-url',
        source.url,
        '--fixtures',
        out,
        '--json',
      ]);
      const report = JSON.parse(drift.stdout) as { differences: { kind: string; breaking: boolean }[] };
      expect(drift.code).toBe(1);
      expect(report.differences).toContainEqual(expect.objectContaining({ kind: 'template-channels', breaking: true }));
    } finally {
      await source.close();
    }
  });
});

interface DriftCase {
  name: string;
  change: (api: LiveApi, s: Seeded) => Promise<void>;
  /** Expected [kind, breaking] pairs, in report order. */
  expected: [string, boolean][];
  code: 0 | 1;
}

const schemaOfShipped = (extra: Record<string, unknown> = {}, drop: string[] = []) => {
  const base: Record<string, unknown> = {
    customerName: { type: 'string' },
    orderId: { type: 'string' },
    trackingUrl: { type: 'action' },
    banner: { type: 'image', required: false },
    ...extra,
  };
  for (const d of drop) delete base[d];
  return base;
};

const DRIFT: DriftCase[] = [
  {
    name: 'a required variable added live',
    change: (api, s) =>
      api.ok('PUT', `/api/templates/${s.shipped.id}`, { variableSchema: schemaOfShipped({ eta: { type: 'string' } }) }),
    expected: [['variable-added', true]],
    code: 1,
  },
  {
    name: 'an optional variable added live',
    change: (api, s) =>
      api.ok('PUT', `/api/templates/${s.shipped.id}`, {
        variableSchema: schemaOfShipped({ coupon: { type: 'string', required: false } }),
      }),
    expected: [['variable-added', false]],
    code: 0,
  },
  {
    name: 'a variable removed live',
    change: (api, s) =>
      api.ok('PUT', `/api/templates/${s.shipped.id}`, { variableSchema: schemaOfShipped({}, ['banner']) }),
    expected: [['variable-removed', true]],
    code: 1,
  },
  {
    name: 'a variable type changed live',
    change: (api, s) =>
      api.ok('PUT', `/api/templates/${s.shipped.id}`, {
        variableSchema: schemaOfShipped({ trackingUrl: { type: 'string' } }),
      }),
    expected: [['variable-type', true]],
    code: 1,
  },
  {
    name: 'an optional variable made required live',
    change: (api, s) =>
      api.ok('PUT', `/api/templates/${s.shipped.id}`, {
        variableSchema: schemaOfShipped({ banner: { type: 'image', required: true } }),
      }),
    expected: [['variable-required', true]],
    code: 1,
  },
  {
    name: 'a required variable made optional live',
    change: (api, s) =>
      api.ok('PUT', `/api/templates/${s.shipped.id}`, {
        variableSchema: schemaOfShipped({ orderId: { type: 'string', required: false } }),
      }),
    expected: [['variable-required', false]],
    code: 0,
  },
  {
    name: 'a variable relabelled live',
    change: (api, s) =>
      api.ok('PUT', `/api/templates/${s.shipped.id}`, {
        variableSchema: schemaOfShipped({ orderId: { type: 'string', name: 'Order number' } }),
      }),
    expected: [['variable-name', false]],
    code: 0,
  },
  {
    name: 'an approved template archived live',
    change: (api, s) => api.ok('PUT', `/api/templates/${s.welcome.id}`, { status: 'archived' }),
    expected: [['template-status', true]],
    code: 1,
  },
  {
    name: 'a draft template approved live',
    change: (api, s) => api.ok('PUT', `/api/templates/${s.sale.id}`, { status: 'approved' }),
    expected: [['template-status', false]],
    code: 0,
  },
  {
    name: 'content changed live',
    change: (api, s) =>
      setContent(api, s, s.welcome, { in_app: { title: 'Hi there, {{userName}}', body: 'Glad you are here.' } }),
    expected: [['content', false]],
    code: 0,
  },
  {
    name: 'a template added live',
    change: async (api, s) => {
      await api.ok<TemplateView>('POST', '/api/templates', { name: 'Cart Reminder', channelIds: [s.inbox.id] });
    },
    expected: [['template-missing-fixtures', false]],
    code: 0,
  },
  {
    name: 'an approved template deleted live',
    change: (api, s) => api.ok('DELETE', `/api/templates/${s.welcome.id}`),
    expected: [['template-missing-live', true]],
    code: 1,
  },
  {
    name: 'a channel added and one renamed live',
    change: async (api, s) => {
      await api.ok<Channel>('POST', '/api/channels', { name: 'Second inbox', type: 'in_app', templateType: 'ui' });
      await api.ok('PUT', `/api/channels/${s.push.id}`, { name: 'Phone Push', enabled: false });
    },
    expected: [
      ['channel-field', false],
      ['channel-field', false],
      ['channel-missing-fixtures', false],
    ],
    code: 0,
  },
  {
    name: 'a template unlinked from a channel live',
    change: (api, s) => api.ok('PUT', `/api/templates/${s.shipped.id}`, { channelIds: [s.inbox.id] }),
    expected: [
      ['template-channels', false],
      ['content', false],
    ],
    code: 0,
  },
  {
    name: 'an approved template linked to one more channel type live',
    change: async (api, s) => {
      await api.ok('PUT', `/api/templates/${s.welcome.id}`, { channelIds: [s.inbox.id, s.push.id] });
      await setContent(api, s, s.welcome, { push: { title: 'Welcome' } });
    },
    expected: [
      ['template-channels', true],
      ['content', false],
    ],
    code: 1,
  },
  {
    name: 'name and category changed live',
    change: (api, s) => api.ok('PUT', `/api/templates/${s.shipped.id}`, { name: 'Order Sent', category: 'orders' }),
    expected: [
      ['template-name', false],
      ['template-category', false],
    ],
    code: 0,
  },
];

describe('check-fixtures', () => {
  it.each(DRIFT.map((c, i) => [c.name, c, i] as const))('reports %s', async (_name, c, i) => {
    const appId = `drift-${i}`;
    const api = live.api(appId);
    const seeded = await seed(api);
    const dir = join(root, appId, 'fixtures');
    expect((await pull(pullArgs(appId, dir))).code).toBe(0);
    const before = folderSnapshot(dir);
    await c.change(api, seeded);
    const res = await checkFixtures(checkArgs(appId, dir));
    const report = JSON.parse(res.stdout);
    expect(report.differences.map((d: { kind: string; breaking: boolean }) => [d.kind, d.breaking])).toEqual(
      c.expected,
    );
    expect(res.code, res.stdout).toBe(c.code);
    expect(report.ok).toBe(c.code === 0);
    expect(report.breaking).toBe(c.expected.filter(([, b]) => b).length);
    for (const d of report.differences) expect(d.message).toEqual(expect.any(String));
    expect(folderSnapshot(dir)).toEqual(before); // check-fixtures writes nothing
    // After a pull, the same fixtures have no difference left.
    expect((await pull(pullArgs(appId, dir))).code).toBe(0);
    const clean = await checkFixtures(checkArgs(appId, dir));
    expect([clean.code, JSON.parse(clean.stdout).differences]).toEqual([0, []]);
  });

  it('prints each difference in words, breaking ones marked, and names the file in JSON', async () => {
    const api = live.api('words');
    const s = await seed(api);
    const dir = join(root, 'words', 'fixtures');
    expect((await pull(pullArgs('words', dir))).code).toBe(0);
    await api.ok('PUT', `/api/templates/${s.shipped.id}`, {
      variableSchema: schemaOfShipped({ eta: { type: 'string' }, trackingUrl: { type: 'string' } }),
    });
    await setContent(api, s, s.welcome, { in_app: { title: 'Hey {{userName}}', body: 'Glad you are here.' } });
    const text = await checkFixtures(checkArgs('words', dir, false));
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('3 difference(s)');
    expect(text.stdout).toContain('2 would let a send pass here that the live account refuses');
    expect(text.stdout).toContain(
      'BREAKING  template "order-shipped": variable "eta" (string, required) exists on the live account ' +
        'and is missing from the fixtures',
    );
    expect(text.stdout).toContain(
      'BREAKING  template "order-shipped": variable "trackingUrl" is of type string on the live account, ' +
        'action in the fixtures',
    );
    expect(text.stdout).toContain(
      'template "welcome-message": content of channel in_app differs: ' +
        'title: live "Hey {{userName}}", fixtures "Welcome, {{userName}}"',
    );
    const json = JSON.parse((await checkFixtures(checkArgs('words', dir))).stdout);
    expect(json.differences[0]).toMatchObject({
      kind: 'variable-added',
      template: 'order-shipped',
      variable: 'eta',
      file: join(dir, 'templates', 'order-shipped.json'),
      live: { type: 'string', required: true },
    });
  });

  it('refuses a fixtures folder without templates/ (exit 2) and names a broken fixture file (exit 1)', async () => {
    const missing = await checkFixtures(checkArgs('words', join(root, 'nowhere')));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no templates folder in .*nowhere/);
    const broken = join(root, 'broken');
    mkdirSync(join(broken, 'templates'), { recursive: true });
    writeFileSync(join(broken, 'templates', 'bad.json'), '{ "key": "x", "status": "live" }');
    const res = await checkFixtures(checkArgs('words', broken));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/bad\.json: field "status"/);
  });
});

describe('wrong credentials', () => {
  it('answers 401 in one line and writes nothing', async () => {
    const out = join(root, 'auth', 'fixtures');
    await seed(live.api('auth'));
    expect((await pull(pullArgs('auth', out))).code).toBe(0);
    const before = folderSnapshot(out);
    const keyFile = join(root, 'wrong.key');
    writeFileSync(join(root, 'wrong.key'), 'sk_wrong_0123456789\n');
    for (const args of [
      [...pullArgs('auth', out), '--api-key-file', keyFile],
      pullArgs('nobody', out), // an app the live account does not know
    ]) {
      const res = await pull(args);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(
        new RegExp(
          String.raw`^notification-emulator pull: failed: GET http://\S+/api/templates\?page=1&limit=100 ` +
            String.raw`answered 401 ERR_UNAUTHORIZED: .*\(check the app id and the API key\)\n$`,
        ),
      );
      expect(res.stderr).not.toContain('sk_wrong_0123456789');
      expect(res.stdout).toBe('');
    }
    expect(folderSnapshot(out)).toEqual(before);
  });

  it('never takes the key as a flag, and needs one', async () => {
    for (const flag of ['--api-key=sk_flag_secret', '--apikey', '--key']) {
      const res = await pull(['--app-id', 'x', '--base-url', live.url, flag, 'sk_flag_secret']);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('is not accepted: a key on the command line lands in shell history');
      expect(res.stderr).not.toContain('sk_flag_secret');
    }
    const none = await pull(['--app-id', 'x', '--base-url', live.url], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no API key: set EMULATOR_PULL_API_KEY or use --api-key-file FILE');
    const userinfo = await pull(['--app-id', 'x', '--base-url', 'https://me:sk_in_url@example.test']);
    expect(userinfo.code).toBe(2);
    expect(userinfo.stderr).toContain('--base-url must not carry a user name or password');
    expect(userinfo.stderr).not.toContain('sk_in_url');
    const noRegion = await pull(['--app-id', 'x']);
    expect([noRegion.code, noRegion.stderr]).toEqual([2, expect.stringContaining('missing --region (or --base-url)')]);
  });

  it('refuses bad arguments with exit 2 before any request, naming the flag', async () => {
    const emptyKeyFile = join(root, 'empty-key');
    writeFileSync(emptyKeyFile, ' \n');
    const cases: [string[], string][] = [
      [['--base-url', live.url], 'missing --app-id'],
      [['--app-id=', '--base-url', live.url], '--app-id needs a value'],
      [['--app-id', 'x', '--base-url', live.url, '--colour'], "Unknown option '--colour'"],
      [['--app-id', 'my.app', '--region', 'eu'], '--app-id "my.app" cannot be part of a host name; use --base-url'],
      [['--app-id', 'x', '--region', 'eu/1'], '--region "eu/1" is not a region name'],
      [['--app-id', 'x', '--base-url', 'localhost:4010'], '--base-url "localhost:4010" must start with http://'],
      [['--app-id', 'x', '--base-url', 'not a url'], '--base-url "not a url" is not a URL'],
      [['--app-id', 'x', '--base-url', `${live.url}?a=1`], 'must not have a query or fragment'],
      [['--app-id', 'x', '--base-url', live.url, '--api-key-file', join(root, 'no-such-key')], 'ENOENT'],
      [['--app-id', 'x', '--base-url', live.url, '--api-key-file', emptyKeyFile], `${emptyKeyFile} is empty`],
    ];
    const journaled = async () =>
      ((await (await fetch(`${live.url}/__inspect/requests?limit=0`)).json()) as { total: number }).total;
    const before = await journaled();
    for (const [argv, words] of cases) {
      const res = await pull(argv);
      expect([res.code, res.stderr], argv.join(' ')).toEqual([2, expect.stringContaining(words)]);
      expect(res.stderr).toContain('Usage: notification-emulator pull');
    }
    expect(await journaled()).toBe(before);
  });
});

describe('the key', () => {
  it('appears in no output and no written file', () => {
    expect(printed.length - FIRST_PRINTED).toBeGreaterThan(40);
    expect(existsSync(root)).toBe(true);
    const leaks = [...printed.slice(FIRST_PRINTED), ...allFileTexts([root])].filter((text) => text.includes(LIVE_KEY));
    expect(leaks).toEqual([]);
  });
});
