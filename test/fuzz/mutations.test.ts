/**
 * The fuzz, one level deeper: a request the emulator accepts, with one part of its body made
 * hostile. Random bodies (fuzz.test.ts) mostly stop at the first check; these pass every
 * check but one, so the hostile value reaches the domain code behind it (rendering, the
 * clock, scenario loading, the template's variables). Each value of each body, and each
 * object and array in it, is replaced in turn by each hostile value (a sweep, not a
 * sample); each object also gets hostile keys. Every answer is checked as in fuzz.test.ts,
 * and against openapi.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, openLowdbStore, type EmulatorApp } from '../../src/index.js';
import { BANNER, CTA, call, callOk, makeTestApp, manualClock, TEST_TEMPLATES } from '../helpers/app.js';
import { createCampaign, upload } from '../helpers/campaigns.js';
import { expectClean, prototypeWatch, SWEEP_TIMEOUT } from '../helpers/fuzz.js';
import { findOperation, openApiDocument } from '../helpers/openapi.js';
import type { Campaign, Health } from '../helpers/api-types.js';

const expectUnpolluted = prototypeWatch();
const ORDER_TEMPLATE = TEST_TEMPLATES[0]!;

/** Stand-ins for values JSON.stringify cannot make, swapped into the request text. */
const DEEP = '\u0001deep';
const PROTO = '\u0001proto';
const RAW: Record<string, string> = {
  [JSON.stringify(DEEP)]: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  [JSON.stringify(PROTO)]: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
};

const HOSTILE: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  8_640_000_000_000_001,
  -1e308,
  '',
  ' ',
  '\u0000',
  '\uD800',
  'x'.repeat(100_000),
  '=cmd|/c calc!A1',
  '{{customerName}}{{',
  '+275760-09-14T00:00:00.000Z',
  '2030-02-31T00:00:00Z',
  [],
  [null],
  {},
  DEEP,
  PROTO,
];

type Path = (string | number)[];

/** The path of every value in `body`, objects and arrays included (the body itself too). */
function paths(value: unknown, at: Path = []): Path[] {
  const found: Path[] = [at];
  if (Array.isArray(value)) value.forEach((item, i) => found.push(...paths(item, [...at, i])));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) found.push(...paths(item, [...at, key]));
  return found;
}

function replaced(body: unknown, path: Path, by: unknown): unknown {
  if (path.length === 0) return by;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path.at(-1)!] = by;
  return copy;
}

/** Each object in `body` with a hostile key added: `__proto__`, `constructor`, an unknown name. */
function withKeys(body: unknown): string[] {
  // JSON.stringify cannot write an own "__proto__": a stand-in key is written first, then swapped.
  const mark = `${JSON.stringify('\u0001key')}:1`;
  const texts: string[] = [];
  for (const path of paths(body)) {
    const node = path.reduce<unknown>((value, step) => (value as Record<string | number, unknown>)[step], body);
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    const text = JSON.stringify(replaced(body, path, { '\u0001key': 1, ...node }));
    for (const key of ['"__proto__":{"polluted":true}', '"constructor":{"prototype":{"polluted":true}}', '"zz":1'])
      texts.push(text.replace(mark, key));
  }
  return texts;
}

/** `body` with each key of each object left out in turn: what a client that forgets a field sends. */
function withoutKeys(body: unknown): string[] {
  const texts: string[] = [];
  for (const path of paths(body)) {
    const node = path.reduce<unknown>((value, step) => (value as Record<string | number, unknown>)[step], body);
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    for (const key of Object.keys(node)) {
      const { [key]: _left, ...rest } = node as Record<string, unknown>;
      texts.push(JSON.stringify(replaced(body, path, rest)));
    }
  }
  return texts;
}

function mutations(body: unknown): string[] {
  const texts: string[] = [];
  for (const path of paths(body))
    for (const value of HOSTILE) {
      let text = JSON.stringify(replaced(body, path, value));
      for (const [mark, raw] of Object.entries(RAW)) text = text.replace(mark, raw);
      texts.push(text);
    }
  return [...texts, ...withKeys(body), ...withoutKeys(body)];
}

interface Target {
  method: string;
  path: string;
  body: unknown;
  /**
   * Where the first success would change what later requests meet (a campaign sent, a name
   * taken), fresh values for each request: each `$name` in the path and body is replaced;
   * `app` is the request's appid.
   */
  fresh?: () => Promise<Record<string, string>>;
  /** Run after each accepted mutation, with its fresh values and its answer: puts what was accepted to use. */
  use?: (values: Record<string, string>, answer: unknown) => Promise<void>;
  /** The emulator the requests go to, when not the sweep's. */
  to?: EmulatorApp;
}

let made = 0;
const unique = (prefix: string) => `${prefix}-${++made}`;

function filled(text: string, values: Record<string, string>): string {
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`$${name}`, value);
  return text;
}

const app = makeTestApp({ clock: manualClock(), maxDeliveries: 20_000, maxJournal: 2_000 });

afterAll(async () => {
  expectUnpolluted();
  expect((await call<Health>(app, 'GET', '/__health')).status).toBe(200);
  await app.close();
});

/** Valid requests for every JSON route, with the resources they name created first. */
async function targets(app: EmulatorApp): Promise<{ targets: Target[]; reads: string[] }> {
  const channel = await callOk<{ id: string }>(app, 'POST', '/api/channels', {
    name: 'Fuzz Alerts',
    type: 'in_app',
    templateType: 'ui',
  });
  const template = await callOk<{ id: string }>(app, 'POST', '/api/templates', {
    name: 'Fuzz',
    channelIds: [channel.id],
    variableSchema: { who: { type: 'string', required: false }, pic: { type: 'image', required: false } },
    config: { a: 1 },
  });
  await callOk(app, 'POST', '/api/template-channels', {
    templateId: template.id,
    channelId: channel.id,
    channelType: 'in_app',
    content: { title: 'Hi {{who}}' },
  });
  const campaign = await callOk<{ id: string }>(app, 'POST', '/api/campaigns', {
    name: 'fuzz',
    templateId: 'order-confirmation',
    deliveryMode: 'batch',
  });
  /** Approves a template (refused if a mutation archived it) and sends with it: rendering what was accepted. */
  const sendWith = async (template: { id: string } | { key: string }) => {
    const ref = 'id' in template ? template.id : template.key;
    expectClean(await call(app, 'PUT', `/api/templates/${ref}`, { status: 'approved' }), `approve ${ref}`);
    const sent = await call(app, 'POST', '/api/notifications/send', {
      template: { ...template, variables: { who: 'Ann', pic: BANNER } },
      targets: ['u1'],
      mode: 'realtime',
    });
    expectClean(sent, `send with ${ref}`);
  };
  const variables = { customerName: 'Ann', banner: BANNER, cta: CTA };
  const sent = await callOk<{ notificationId: string }>(app, 'POST', '/api/notifications/send', {
    template: { key: 'order-confirmation', variables },
    targets: ['u1'],
    mode: 'realtime',
  });
  // A trace from an emulator of its own: every part of its header, its lists empty (each list is
  // still swept whole; the records' fields are zod's to check, test/trace/import-errors.test.ts).
  const traced = makeTestApp({ clock: manualClock(), scenarios: [] });
  const exported = JSON.parse(await (await traced.request('/__export')).text()) as Record<string, unknown>;
  const trace = { ...exported, apps: [{ appId: 'app-test', apiKey: '' }] };
  const reads = [
    '/api/campaigns',
    `/api/campaigns/${campaign.id}`,
    `/api/campaigns/${campaign.id}/recipients`,
    '/api/templates',
    `/api/templates/${template.id}`,
    '/api/channels',
    `/api/channels/${channel.id}`,
    '/api/channels/availability',
    `/api/template-channels?templateId=${template.id}`,
    `/api/template-channels/${template.id}/${channel.id}`,
    '/api/analytics/channels?from=2029-01-01&to=2031-12-31',
    '/api/analytics/users/u1',
    '/__apps',
    '/__apps/app-test/templates',
    '/__inspect/delivery-stats',
    '/__inspect/deliveries?limit=10000',
    '/__inspect/notifications?limit=10000',
    '/__inspect/requests?limit=10000',
    '/__inspect/campaigns',
    `/__inspect/campaigns/${campaign.id}`,
    `/__inspect/campaigns/${campaign.id}/recipients`,
    '/__scenarios',
    '/__scenarios/fuzz',
    '/__clock',
    '/__health',
  ];
  const targets: Target[] = [
    {
      method: 'POST',
      path: '/api/notifications/send',
      body: {
        template: { key: 'order-confirmation', variables, notificationPushData: { deepLink: 'app://x' } },
        targets: ['u1'],
        mode: 'realtime',
        title: 'T',
        tag: 'orders',
      },
    },
    {
      method: 'POST',
      path: '/v3/business-messaging/api/notifications/send',
      body: {
        template: {
          id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
          variables: { u1: variables, u2: { ...variables, banner: undefined } },
        },
        targets: ['u1', 'u2'],
        mode: 'batch',
      },
    },
    {
      method: 'POST',
      path: '/api/campaigns',
      body: { name: 'c', templateId: 'plain', deliveryMode: 'batch', tag: 't' },
      // The campaign as created, given a recipient and sent.
      use: async (_values, answer) => {
        const { id } = answer as Campaign;
        expectClean(
          await call(app, 'POST', `/api/campaigns/${id}/recipients`, { userIds: ['u1'] }),
          `recipients of ${id}`,
        );
        expectClean(await call(app, 'POST', `/api/campaigns/${id}/send`, {}), `send ${id}`);
      },
    },
    { method: 'PUT', path: `/api/campaigns/${campaign.id}`, body: { name: 'c2', tag: 't2', deliveryMode: 'realtime' } },
    { method: 'POST', path: `/api/campaigns/${campaign.id}/recipients`, body: { userIds: ['u1', 'u2'] } },
    {
      method: 'POST',
      path: '/api/campaigns/$draft/send',
      body: { scheduledAt: '2031-01-01T00:00:00.000Z' },
      // A campaign is sent once: each request gets a draft of its own with a recipient.
      fresh: async () => {
        const draft = await callOk<{ id: string }>(app, 'POST', '/api/campaigns', {
          name: 'fuzz-send',
          templateId: 'plain',
          deliveryMode: 'batch',
        });
        await callOk(app, 'POST', `/api/campaigns/${draft.id}/recipients`, { userIds: ['u1'] });
        return { draft: draft.id };
      },
    },
    {
      method: 'POST',
      path: '/api/templates',
      body: {
        name: '$slug',
        templateId: '$slug',
        category: 'x',
        channelIds: [channel.id],
        variableSchema: [{ key: 'who', type: 'string', name: 'Who', required: true }],
        config: { a: 1 },
      },
      fresh: async () => ({ slug: unique('fuzz') }),
      use: ({ slug }) => sendWith({ key: slug! }),
    },
    {
      method: 'PUT',
      path: `/api/templates/${template.id}`,
      body: { name: 'Fuzz', category: null, availability: 'all', sequence: 1, config: { b: [1] } },
      use: () => sendWith({ id: template.id }),
    },
    {
      method: 'POST',
      path: '/api/template-channels',
      body: { templateId: '$template', channelId: channel.id, channelType: 'in_app', content: { title: 'Hi {{who}}' } },
      // One row per template and channel: each request gets a template of its own.
      fresh: async () => {
        const own = await callOk<{ id: string }>(app, 'POST', '/api/templates', {
          name: unique('fuzz-row'),
          channelIds: [channel.id],
          variableSchema: { who: { type: 'string', required: false } },
        });
        return { template: own.id };
      },
      use: ({ template: own }) => sendWith({ id: own! }),
    },
    {
      method: 'PUT',
      path: `/api/template-channels/${template.id}/${channel.id}`,
      body: { content: { title: 'Hey {{who}}', body: '{{pic}}' } },
      use: () => sendWith({ id: template.id }),
    },
    {
      method: 'POST',
      path: '/api/channels',
      body: { name: 'Fuzz Push', type: 'push', templateType: 'data', config: {} },
      // One push channel per app: each request comes from an app of its own.
      fresh: async () => ({ app: unique('fuzz-app') }),
    },
    {
      method: 'PUT',
      path: `/api/channels/${channel.id}`,
      body: { name: 'Fuzz Alerts', enabled: true, config: { k: 'v' } },
    },
    {
      method: 'POST',
      path: '/api/analytics/events',
      body: { campaignId: sent.notificationId, userId: 'u1', channelType: 'in_app', eventType: 'viewed' },
    },
    {
      method: 'POST',
      path: '/api/analytics/rollup',
      body: { from: '2029-01-01T00:00:00Z', to: '2031-12-31T23:59:59Z' },
    },
    {
      method: 'POST',
      path: '/__import?appId=$app',
      body: trace,
      // Imported as one app of its own each time, into an emulator of its own: an import of one app
      // rebuilds the store, and the sweep's grows with every accepted request.
      fresh: async () => ({ app: unique('fuzz-import') }),
      to: makeTestApp({ clock: manualClock(), scenarios: [] }),
    },
    { method: 'POST', path: '/__clock', body: { advanceMs: 1000 } },
    { method: 'POST', path: '/__clock', body: { now: '2030-06-01T00:00:00.000Z' } },
    {
      method: 'POST',
      path: '/__scenarios',
      body: {
        name: 'fuzz',
        description: 'x',
        rules: [
          {
            match: { method: 'POST', path: '/api/campaigns/:id/send', body: { a: [1] }, headers: { x: 'y' } },
            fault: { error: 'ERR_OPERATION_FAILED', delayMs: 0 },
            times: 1,
            after: 0,
            probability: 1,
          },
          { match: { userId: 'user-9*' }, fault: { failDelivery: 'unreachable' } },
          { match: { path: '/api/*' }, fault: { status: 418, body: { a: 1 }, headers: { 'x-a': 'b' } } },
          { match: { templateKey: 'plain' }, fault: { rateLimit: { retryAfterSec: 1, limit: 5 } } },
        ],
      },
      // The scenario as loaded, activated for a few requests it matches: its faults, never a bug.
      use: async () => {
        const headers = { 'x-emulator-scenario': 'fuzz', x: 'y' };
        const uses: [string, unknown][] = [
          [`/api/campaigns/${campaign.id}/send`, { a: [1] }],
          ['/api/notifications/send', { template: { key: 'plain' }, targets: ['user-9'], mode: 'realtime' }],
          ['/api/notifications/send', { template: { key: 'plain' }, targets: ['user-9', 'u1'], mode: 'batch' }],
        ];
        for (const [to, payload] of uses) {
          const res = await call(app, 'POST', to, payload, { headers });
          expect(JSON.stringify(res.body) ?? '', `POST ${to} under the fuzzed scenario`).not.toMatch(
            /bug in the emulator/,
          );
        }
      },
    },
    {
      // Last: activates the scenario just loaded for everyone, so each success is undone at once.
      method: 'PUT',
      path: '/__scenarios/active',
      body: { names: ['fuzz'] },
      use: async () => expectClean(await call(app, 'PUT', '/__scenarios/active', { names: [] }), 'deactivate'),
    },
  ];
  return { targets, reads };
}

/**
 * Every mutation of every target's body (those `swept` keeps), sent to `app`; answers the
 * read paths of what it made.
 */
async function sweepBodies(app: EmulatorApp, swept: (target: Target) => boolean = () => true): Promise<string[]> {
  const { targets: all, reads } = await targets(app);
  for (const { method, path, body, fresh, use, to = app } of all.filter(swept)) {
    // The valid body itself passes: the mutations start from a request the emulator accepts.
    const first = (await fresh?.()) ?? {};
    const valid = await call(to, method, filled(path, first), undefined, {
      raw: filled(JSON.stringify(body), first),
      appId: first.app,
      headers: { 'content-type': 'application/json' },
    });
    expect(Math.floor(valid.status / 100), `${method} ${path} (valid): ${JSON.stringify(valid.body)}`).toBe(2);
    await use?.(first, valid.body);
    let count = 0;
    for (const raw of mutations(body)) {
      const values = (await fresh?.()) ?? {};
      const res = await call(to, method, filled(path, values), undefined, {
        raw: filled(raw, values),
        appId: values.app,
        headers: { 'content-type': 'application/json' },
      });
      expectClean(res, `${method} ${path} ${raw.slice(0, 200)}`);
      // A field left out is "required", in the words of the fields that say so themselves, and
      // no field gets zod's bare "Invalid input".
      expect(JSON.stringify(res.body), `${method} ${path} ${raw.slice(0, 200)}`).not.toMatch(
        /received undefined|"Invalid input"/,
      );
      if (res.status < 300) await use?.(values, res.body);
      count++;
    }
    expect(count).toBeGreaterThan(HOSTILE.length);
  }
  await campaignsFinish(app);
  return reads;
}

/** Every campaign sent finishes: none is left sending by a recipient its run could not deliver. */
async function campaignsFinish(app: EmulatorApp): Promise<void> {
  await expect
    .poll(async () => (await call<{ total: number }>(app, 'GET', '/__inspect/campaigns?status=sending')).body.total)
    .toBe(0);
}

/** Every read path's answer (each must be 200): whatever was accepted still reads and serialises. */
async function readAll(app: EmulatorApp, reads: string[]): Promise<Map<string, unknown>> {
  const answers = new Map<string, unknown>();
  for (const path of reads) {
    const res = await call(app, 'GET', path);
    expect(res.status, `GET ${path}: ${JSON.stringify(res.body)?.slice(0, 300)}`).toBe(200);
    answers.set(path, res.body);
  }
  return answers;
}

describe('fuzz: one part of a valid request made hostile', () => {
  it('has a valid request for every operation of openapi.json that takes a JSON body', async () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    };
    const swept = new Set(
      (await targets(makeTestApp())).targets.map((t) => `${t.method} ${findOperation(t.method, t.path)?.template}`),
    );
    for (const [template, operations] of Object.entries(doc.paths)) {
      if (template.startsWith('/v3/')) continue; // the same routes; the send target covers that prefix
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.requestBody?.content['application/json']) continue;
        const operationName = `${method.toUpperCase()} ${template}`;
        expect(swept.has(operationName), `${operationName}: add a valid request to targets()`).toBe(true);
      }
    }
  });

  it(
    'each value, array and object of a valid body of every JSON route, and hostile keys in each object',
    async () => {
      await readAll(app, await sweepBodies(app));
    },
    SWEEP_TIMEOUT,
  );

  it(
    'with --data-file: what was accepted is written, and reads the same after a restart',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'emu-fuzz-'));
      const file = join(dir, 'state.json');
      const open = async () =>
        makeTestApp({ clock: manualClock(), store: await openLowdbStore(file, { debounceMs: 10, maxWaitMs: 50 }) });
      try {
        const first = await open();
        // A target with an emulator of its own writes nothing to the file: swept once, above.
        const reads = await sweepBodies(first, (target) => target.to === undefined);
        // Scenarios loaded over HTTP and the clock live in the process, not the file (delivery
        // stats default to the clock's last hour); the journal gains the reads themselves.
        const notKept = ['/__scenarios', '/__clock', '/__health', '/__inspect/delivery-stats', '/__inspect/requests'];
        const kept = reads.filter((path) => !notKept.some((prefix) => path.startsWith(prefix)));
        const before = await readAll(first, kept);
        await first.close();
        const second = await open();
        try {
          const after = await readAll(second, kept);
          for (const path of kept.filter((p) => p !== '/__apps'))
            expect(after.get(path), path).toEqual(before.get(path));
          // Open mode forgets an app whose every request was refused (it left no record to remember it by).
          type Apps = { items: { appId: string }[] };
          const appsBefore = (before.get('/__apps') as Apps).items;
          const appsAfter = (after.get('/__apps') as Apps).items;
          expect(appsBefore).toEqual(expect.arrayContaining(appsAfter));
          expect(appsAfter.map((a) => a.appId)).toContain('app-test');
        } finally {
          await second.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SWEEP_TIMEOUT,
  );
});

describe('fuzz: one cell of a valid CSV upload made hostile', () => {
  /** CSV-quoted, so any text is one cell. */
  const cell = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const banner = JSON.stringify(BANNER);
  const cta = JSON.stringify(CTA);
  const rows = [
    ['user_id', 'customerName', 'banner', 'cta'],
    ['u1', 'Ann', banner, cta],
    ['u2', 'Bob', '', cta],
  ];
  const HOSTILE_CELLS = [
    '',
    ' ',
    '\u0000',
    '\uFFFD\uD800',
    'x'.repeat(100_000),
    '=cmd|/c calc!A1',
    '",\r\n"',
    '{{customerName}}{{',
    'null',
    '[]',
    '1e999',
    '{"url":1,"width":"w","height":null}',
    '{"url":"u","width":1e308,"height":-1}',
    '{"type":"ftp","data":7}',
    '{"__proto__":{"polluted":true},"type":"web","data":"x"}',
    '{"constructor":{"prototype":{"polluted":true}},"url":"u","width":1,"height":1}',
    `{"type":"web","data":"x","n":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
    `{"url":"u","width":1,"height":1,"extra":"${'y'.repeat(100_000)}"}`,
  ];

  it('each cell, header cells too, replaced by each hostile value: the upload, a send, every view', async () => {
    let accepted = 0;
    for (let r = 0; r < rows.length; r++) {
      for (let c = 0; c < rows[0]!.length; c++) {
        for (const value of HOSTILE_CELLS) {
          const csv = rows
            .map((row, i) => row.map((text, j) => cell(i === r && j === c ? value : text)).join(','))
            .join('\n');
          const created = await createCampaign(app, { name: 'fuzz-csv' });
          const what = `row ${r}, column ${c}: ${value.slice(0, 60)}`;
          const uploaded = await upload(app, csv, created.id);
          expectClean(uploaded, `upload, ${what}`);
          if (uploaded.status !== 200 || uploaded.body.total === 0) continue;
          accepted++;
          expectClean(await call(app, 'POST', `/api/campaigns/${created.id}/send`, {}), `send, ${what}`);
          for (const path of [
            `/api/campaigns/${created.id}/recipients`,
            `/__inspect/campaigns/${created.id}/recipients`,
          ])
            expect((await call(app, 'GET', path)).status, `GET ${path}, ${what}`).toBe(200);
        }
      }
    }
    expect(accepted).toBeGreaterThan(HOSTILE_CELLS.length);
    await campaignsFinish(app);
    expect((await call(app, 'GET', '/__inspect/deliveries?limit=10000')).status).toBe(200);
  });
});

describe('fuzz: each query parameter of every GET route made hostile', () => {
  const QUERY_VALUES = [
    '',
    ' ',
    '-1',
    '0',
    '1.5',
    '1e999',
    'NaN',
    '9007199254740993',
    '+275760-09-14T00:00:00.000Z',
    '2030-02-31',
    '2030-01-01T00:00:00Z',
    'x'.repeat(10_000),
    '\u0000',
    '%',
    '*',
    '__proto__',
  ];

  it(
    'each parameter openapi.json lists, alone with each value and given twice',
    async () => {
      const doc = openApiDocument() as {
        paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
      };
      const campaign = await callOk<{ id: string }>(app, 'POST', '/api/campaigns', {
        name: 'fuzz-query',
        templateId: 'plain',
        deliveryMode: 'batch',
      });
      const params: Record<string, string> = { id: campaign.id, userId: 'u1', name: 'fuzz', appId: 'app-test' };
      let sent = 0;
      for (const [template, operations] of Object.entries(doc.paths)) {
        // The stream never ends by itself (tested over a socket elsewhere); one base path is enough.
        if (!operations.get || template.startsWith('/v3/') || template === '/__inspect/stream') continue;
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? 'x');
        const names = (operations.get.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        for (const name of names) {
          for (const value of QUERY_VALUES) {
            const query = new URLSearchParams([[name, value]]);
            // A waitFor must not wait: the fuzz is about the answer, not the clock.
            if (name !== 'timeoutMs' && names.includes('timeoutMs')) query.set('timeoutMs', '0');
            // Nor a whole journal as HAR (10,000 entries by default, the sweeps' bodies in them): the query is.
            if (name !== 'limit' && template.endsWith('.har')) query.set('limit', '1');
            for (const twice of [false, true]) {
              if (twice) query.append(name, value);
              const res = await call(app, 'GET', `${path}?${query}`);
              expectClean(res, `GET ${path}?${query.toString().slice(0, 200)}`);
              if (res.status === 200) sent++;
            }
          }
        }
      }
      // Many values are valid for some parameters: those requests reached the query itself.
      expect(sent).toBeGreaterThan(200);
    },
    SWEEP_TIMEOUT,
  );
});

describe('fuzz: the headers of a valid send made hostile', () => {
  const HEADER_VALUES = ['', ' ', 'x'.repeat(8_000), 'caf\u00e9', '*', ',', 'a,,b', '__proto__', 'undefined', 'null'];
  const body = JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
  const headerNames = ['appid', 'apikey', 'content-type', 'x-emulator-scenario', 'host', 'content-encoding', 'accept'];

  it('appid, apikey, content-type, scenario activation, host and encoding, each with each value', async () => {
    for (const path of ['/api/notifications/send', '/v3/business-messaging/api/notifications/send']) {
      for (const name of headerNames) {
        for (const value of [...HEADER_VALUES, 'application/json; charset=latin1', 'APPLICATION/JSON', 'gzip']) {
          const headers: Record<string, string> = { 'content-type': 'application/json', [name]: value };
          const res = await call(app, 'POST', path, undefined, { raw: body, headers });
          expectClean(res, `${name}: ${value.slice(0, 60)}`);
        }
      }
    }
  });
});

describe('fuzz: one part of a valid fixture set made hostile', () => {
  it(
    'each value refused at load with a ConfigError, or loaded and then sent with, listed and previewed',
    async () => {
      // The test app's order template linked to two fixture channels, with a row for one of them (README: fixtures).
      const inApp = '664a1b2c3d4e5f6a7b8c9d0e';
      const push = '664a1b2c3d4e5f6a7b8c9d0f';
      const base = {
        templates: [
          {
            ...ORDER_TEMPLATE,
            channelIds: [inApp, push],
            content: {
              ...ORDER_TEMPLATE.content,
              push: { title: 'For {{customerName}}', data: { deep: ['{{cta}}'] } },
            },
            rows: [{ channelId: inApp, channelType: 'in_app', content: { title: 'Thanks, {{customerName}}' } }],
          },
        ],
        channels: [
          { id: inApp, name: 'In-App Alerts', key: 'in-app-alerts', type: 'in_app', templateType: 'ui', config: {} },
          { id: push, name: 'Mobile Push', type: 'push', templateType: 'data', enabled: true, appId: 'app-test' },
        ],
      };
      let loaded = 0;
      for (const text of mutations(base)) {
        const what = text.slice(0, 200);
        let fuzzed: ReturnType<typeof makeTestApp>;
        try {
          // The set itself replaced (null, a number…) leaves neither list: the defaults load.
          const { templates, channels } = (JSON.parse(text) ?? {}) as { templates: unknown[]; channels: unknown[] };
          fuzzed = makeTestApp({ templates, channels });
        } catch (error) {
          expect(error, what).toBeInstanceOf(ConfigError);
          continue;
        }
        loaded++;
        try {
          const sent = await call(fuzzed, 'POST', '/api/notifications/send', {
            template: { key: 'order-confirmation', variables: { customerName: 'Ann', banner: BANNER, cta: CTA } },
            targets: ['u1'],
            mode: 'realtime',
          });
          expectClean(sent, `send, ${what}`);
          const reads = ['/api/templates', '/api/channels', '/__apps/app-test/templates', '/__inspect/deliveries'];
          for (const path of reads) expect((await call(fuzzed, 'GET', path)).status, `GET ${path}, ${what}`).toBe(200);
        } finally {
          await fuzzed.close();
        }
      }
      expect(loaded).toBeGreaterThan(HOSTILE.length);
    },
    SWEEP_TIMEOUT,
  );
});
