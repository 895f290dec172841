/**
 * The fuzz suite (fixed seed, so a failure replays): hostile requests to every route of
 * both base paths and of the control plane. Whatever arrives, the answer is the error
 * envelope with the status of its code (or a success), never a 5xx (no scenario is active,
 * so nothing is injected), nothing is polluted, and the emulator keeps answering.
 * `npm run bench` runs a bigger pass (BENCH_ONLY=fuzz).
 */
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';
import { API_PREFIXES } from '../../src/app.js';
import { makeTestApp, TEST_TEMPLATES, call } from '../helpers/app.js';
import { expectClean, prototypeWatch, SWEEP_TIMEOUT } from '../helpers/fuzz.js';
import type { Campaign, DeliveryPage, Health, JournalPage, RecipientPage } from '../helpers/api-types.js';

/** FUZZ_SEED explores other inputs; a failure names its seed, so it replays with the same value. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/** BENCH_FUZZ_SCALE multiplies the run counts (the bench's bigger pass). */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const app = makeTestApp({ maxDeliveries: 20_000, maxJournal: 2_000 });

const expectUnpolluted = prototypeWatch();

/** Every route the app serves (both base paths, the control plane), from Hono's own table. */
const ROUTES = [
  ...new Map(app.routes.filter((r) => r.method !== 'ALL').map((r) => [`${r.method} ${r.path}`, r])).values(),
]
  // The stream never ends by itself (tested over a socket elsewhere); activating a fuzzed
  // scenario would inject faults on purpose.
  .filter((r) => !r.path.endsWith('/__inspect/stream') && !(r.method === 'PUT' && r.path === '/__scenarios/active'));

/** Names the request schemas use: a fuzzed object draws its keys from here (and from anywhere). */
const FIELDS = [
  'template',
  'targets',
  'mode',
  'title',
  'tag',
  'variables',
  'notificationPushData',
  'key',
  'id',
  'name',
  'templateId',
  'deliveryMode',
  'userIds',
  'scheduledAt',
  'status',
  'channels',
  'content',
  'variableSchema',
  'type',
  'enabled',
  'config',
  'userId',
  'event',
  'channelId',
  'advanceMs',
  'now',
  'names',
  'rules',
  'match',
  'fault',
  'page',
  'limit',
  'offset',
  'appId',
  'campaignId',
  '__proto__',
  'constructor',
  'prototype',
];

const hostileString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', '\uFFFD', '\uD800', '../..', '%00', '%2f..', '=cmd|/c calc!A1', 'null', '1e999'),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const leaf = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(8_640_000_000_000_001, -1, 0, Number.MAX_SAFE_INTEGER, 1e21),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 6 })), tie('v'), { maxKeys: 5 }),
  ),
})).v;
/** Objects shaped like requests: known field names, wrong or right types. */
const body = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }) },
  { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { minKeys: 1, maxKeys: 1 }) },
  { weight: 1, arbitrary: value },
);
const pathParam = fc.oneof(
  fc.constantFrom(
    'plain',
    'aaaaaaaaaaaaaaaaaaaaaaaa',
    'u1',
    '%2f..',
    '%00',
    '..%2f..%2fetc',
    '%E0%A4%A',
    'x'.repeat(5000),
  ),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
);
const query = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom(...FIELDS, 'waitFor', 'timeoutMs', 'since', 'until', 'order', 'types'),
      fc.string({ maxLength: 5 }),
    ),
    hostileString,
  ),
  { maxLength: 4 },
);

function concretePath(template: string, params: string[]): string {
  let i = 0;
  return template.replace(/:[A-Za-z]+/g, () => params[i++ % params.length] ?? 'x');
}

const requestsSent: string[] = [];
async function fuzzCall(
  method: string,
  path: string,
  payload: unknown,
  extra: { raw?: string | Uint8Array; headers?: Record<string, string> } = {},
) {
  const what = `${method} ${path.slice(0, 200)}`;
  requestsSent.push(what);
  const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const options =
    extra.raw !== undefined
      ? { raw: extra.raw, headers: { 'content-type': 'application/json', ...extra.headers } }
      : { headers: extra.headers };
  const res = await call(app, method, path, withBody && extra.raw === undefined ? payload : undefined, options);
  expectClean(res, what);
  return res;
}

afterAll(async () => {
  // Nothing was polluted, and the emulator still answers.
  expectUnpolluted();
  expect((await call<Health>(app, 'GET', '/__health')).status).toBe(200);
  await app.close();
});

describe('fuzz: every route, both base paths and the control plane', () => {
  it('knows the routes it fuzzes (both API prefixes and /__)', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(paths.some((p) => p.startsWith('/api/'))).toBe(true);
    expect(paths.some((p) => p.startsWith('/v3/business-messaging/api/'))).toBe(true);
    expect(paths.some((p) => p.startsWith('/__'))).toBe(true);
  });

  it('wrong types for every field, hostile keys, queries and path parameters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        body,
        query,
        fc.array(pathParam, { minLength: 1, maxLength: 2 }),
        async (route, payload, pairs, params) => {
          const qs = new URLSearchParams(pairs);
          if (qs.has('waitFor')) qs.set('timeoutMs', '0'); // no real waiting
          if (qs.has('timeoutMs') && !qs.has('waitFor')) qs.delete('timeoutMs');
          const path = concretePath(route.path, params);
          await fuzzCall(route.method, `${path}${pairs.length ? `?${qs}` : ''}`, payload);
        },
      ),
      { numRuns: 3000 * SCALE, seed: SEED },
    );
  });

  it(
    'each field alone with each wrong type, on every route (a sweep, not a sample)',
    async () => {
      const wrong: unknown[] = [null, true, -1, 1.5, 8_640_000_000_000_001, 1e308, '', '\u0000', [], {}, [null], 'x'];
      for (const route of ROUTES) {
        const path = concretePath(route.path, ['plain']);
        // The two API prefixes serve the same handlers: each prefix takes every other field, so every
        // field still reaches every handler, at half the requests.
        const prefix = API_PREFIXES.findIndex((p) => route.path.startsWith(`${p}/`));
        const fields = prefix < 0 ? FIELDS : FIELDS.filter((_, i) => i % 2 === prefix);
        for (const field of fields) {
          if (route.method === 'GET' || route.method === 'DELETE') {
            for (const v of ['', '-1', '1e999', 'x', '%00'])
              await fuzzCall(route.method, `${path}?${field}=${v}`, undefined);
          } else for (const v of wrong) await fuzzCall(route.method, path, { [field]: v });
        }
      }
    },
    SWEEP_TIMEOUT,
  );

  it('__proto__ and constructor keys in every body pollute nothing', async () => {
    const payloads = [
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      '{"template":{"key":"plain","variables":{"__proto__":{"polluted":true}}},"targets":["u1"],"mode":"realtime"}',
      '{"name":"x","templateId":"plain","deliveryMode":"batch","__proto__":{"status":"sent"}}',
      '{"advanceMs":1,"__proto__":{"polluted":1}}',
    ];
    for (const route of ROUTES.filter((r) => r.method === 'POST' || r.method === 'PUT')) {
      for (const raw of payloads) await fuzzCall(route.method, concretePath(route.path, ['plain']), undefined, { raw });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('fuzz: sizes and encodings', () => {
  const sendPaths = ['/api/notifications/send', '/v3/business-messaging/api/notifications/send'];

  it('10,000-level nesting, megabyte strings, NUL and invalid UTF-8', async () => {
    const nested = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const deep = `{"template":{"key":"plain","variables":${nested}},"targets":["u1"],"mode":"realtime"}`;
    const deepArray = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const mega = JSON.stringify({
      template: { key: 'plain' },
      targets: ['x'.repeat(1 << 20)],
      mode: 'realtime',
      title: 'y'.repeat(1 << 20),
    });
    const nul = '{"template":{"key":"plain\u0000"},"targets":["u\u0000"],"mode":"realtime"}';
    const invalidUtf8 = new Uint8Array([
      ...new TextEncoder().encode('{"template":{"key":"'),
      0xc3,
      0x28,
      0xff,
      ...new TextEncoder().encode('"},"targets":["u1"],"mode":"realtime"}'),
    ]);
    for (const path of sendPaths) {
      for (const raw of [deep, deepArray, mega, nul, invalidUtf8]) await fuzzCall('POST', path, undefined, { raw });
    }
    for (const route of ROUTES.filter((r) => r.method === 'POST' || r.method === 'PUT')) {
      await fuzzCall(route.method, concretePath(route.path, ['plain']), undefined, { raw: deep });
    }
    // Journal and inspect answers still serialise after all that.
    expect((await call<JournalPage>(app, 'GET', '/__inspect/requests?limit=1000')).status).toBe(200);
    expect((await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries?limit=1000')).status).toBe(200);
  });

  it('path oddities and 10 KB headers', async () => {
    const paths = [
      '/api/templates/%2f..%2f..%2fetc%2fpasswd',
      '/api/%2e%2e/__health',
      '/api/campaigns/%00',
      '/api/campaigns/%E0%A4%A/recipients',
      `/api/${'a/'.repeat(4000)}`,
      `/__inspect/campaigns/${'%41'.repeat(3000)}`,
      '/__inspect/deliveries?limit=%00',
      '//api//notifications//send',
      '/v3/business-messaging/api/templates/..',
    ];
    for (const path of paths) for (const method of ['GET', 'POST', 'DELETE']) await fuzzCall(method, path, {});
    const big = 'h'.repeat(10 * 1024);
    await fuzzCall(
      'POST',
      '/api/notifications/send',
      { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' },
      {
        headers: { 'x-big': big, appid: big, apikey: big, 'x-emulator-scenario': big },
      },
    );
  });
});

describe('fuzz: CSV uploads', () => {
  const upload = async (file: string | Uint8Array, campaignId: string) => {
    const form = new FormData();
    form.set('campaignId', campaignId);
    form.set('file', new Blob([file]), 'r.csv');
    for (const path of ['/api/campaigns/upload', '/v3/business-messaging/api/campaigns/upload']) {
      const res = await call(app, 'POST', path, undefined, { raw: form });
      expectClean(res, `upload ${String(file).slice(0, 40)}`);
    }
  };

  it('CR-only line ends, unclosed quotes, 10,000 columns, a 5 MB cell, formula cells, garbage multipart', async () => {
    const created = await call<Campaign>(app, 'POST', '/api/campaigns', {
      name: 'fuzz',
      templateId: 'order-confirmation',
      deliveryMode: 'batch',
    });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const cta = '"{""type"":""web"",""data"":""https://x.example""}"';
    await upload(`user_id,customerName,cta\ru1,Ann,${cta}\ru2,Bob,${cta}\r`, id);
    await upload(`user_id,customerName,cta\nu3,"Ann,${cta}\nu4,Bob,${cta}\n`, id);
    await upload(`user_id,${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}\nu5\n`, id);
    await upload(`user_id,customerName,cta\nu6,"${'x'.repeat(5 * 1024 * 1024)}",${cta}\n`, id);
    await upload(`user_id,customerName,cta\nu7,=cmd|' /C calc'!A0,${cta}\nu8,@SUM(1+1),${cta}\n`, id);
    await upload(new Uint8Array([0xff, 0xfe, 0x00, 0x41, 0x0a]), id);
    const deepCell = `"{""type"":""web"",""data"":""x"",""n"":${'['.repeat(10_000)}${']'.repeat(10_000)}}"`;
    await upload(`user_id,customerName,cta\nu9,Deep,${deepCell}\n`, id);
    await fuzzCall('GET', `/api/campaigns/${id}/recipients?limit=1000`, undefined);
    // Formula cells are kept as text, never evaluated.
    const recipients = (await call<RecipientPage>(app, 'GET', `/__inspect/campaigns/${id}/recipients?limit=100`)).body
      .items as {
      userId: string;
      variables: Record<string, unknown>;
    }[];
    expect(recipients.find((r) => r.userId === 'u7')?.variables.customerName).toBe("=cmd|' /C calc'!A0");
    expect(recipients.find((r) => r.userId === 'u8')?.variables.customerName).toBe('@SUM(1+1)');
    // Garbage multipart bodies.
    const garbage = [
      '--b\r\n\r\n--b--',
      '--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nuser_id\nu1',
      'no boundary at all',
      '--b\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\n' +
        id +
        '\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n\u0000\u0000\r\n--b--',
      '--b' + 'x'.repeat(20_000),
    ];
    for (const raw of garbage) {
      for (const type of [
        'multipart/form-data; boundary=b',
        'multipart/form-data',
        'multipart/form-data; boundary=' + 'z'.repeat(80),
      ]) {
        await fuzzCall('POST', '/api/campaigns/upload', undefined, { raw, headers: { 'content-type': type } });
      }
    }
  });

  it('random bytes as the CSV file and as the multipart body', async () => {
    const created = await call<Campaign>(app, 'POST', '/api/campaigns', {
      name: 'fuzz-2',
      templateId: 'plain',
      deliveryMode: 'batch',
    });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), fc.uint8Array({ maxLength: 300 }), async (csv, raw) => {
        await upload(csv, created.body.id);
        await fuzzCall('POST', '/api/campaigns/upload', undefined, {
          raw,
          headers: { 'content-type': 'multipart/form-data; boundary=b' },
        });
      }),
      { numRuns: 100 * SCALE, seed: SEED },
    );
  });
});

describe('fuzz: over a real socket', () => {
  /** Writes raw bytes, half-closes, and answers the status line (or null if the socket closed without one). */
  async function raw(
    url: string,
    bytes: string | Uint8Array,
    pieces = 1,
  ): Promise<{ status: number | null; text: string }> {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes);
    const size = Math.ceil(data.length / pieces);
    for (let at = 0; at < data.length; at += size) {
      socket.write(data.subarray(at, at + size));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    socket.end();
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    await new Promise((resolve) => socket.once('close', resolve));
    const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
    return { status: status ? Number(status) : null, text };
  }

  it('truncated, chunked and garbage bodies and 10 KB headers: no 5xx, the envelope, and it lives on', async () => {
    const emu = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    try {
      const head = (path: string, headers: string) =>
        `POST ${path} HTTP/1.1\r\nhost: x\r\nappid: a\r\napikey: k\r\nconnection: close\r\n${headers}\r\n`;
      const send = '{"template":{"key":"plain"},"targets":["u1"],"mode":"realtime"}';
      const chunked = (body: string) =>
        body.length ? `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n` : '0\r\n\r\n';
      const cases: [string, string | Uint8Array, number][] = [
        // Chunked JSON in many small pieces, and a chunked body with broken framing.
        [
          'chunked send',
          head('/api/notifications/send', 'content-type: application/json\r\ntransfer-encoding: chunked\r\n') +
            chunked(send),
          30,
        ],
        [
          'bad chunk sizes',
          head('/api/notifications/send', 'content-type: application/json\r\ntransfer-encoding: chunked\r\n') +
            'zz\r\n{}\r\n0\r\n\r\n',
          1,
        ],
        // A body shorter than its content-length (the client half-closes).
        [
          'truncated',
          head('/api/notifications/send', 'content-type: application/json\r\ncontent-length: 500\r\n') +
            send.slice(0, 20),
          3,
        ],
        [
          'chunked multipart garbage',
          head(
            '/v3/business-messaging/api/campaigns/upload',
            'content-type: multipart/form-data; boundary=b\r\ntransfer-encoding: chunked\r\n',
          ) + chunked('--b\r\nContent-Disposition: form-data; name="file"\r\n\r\n\u0000\u0001garbage'),
          7,
        ],
        [
          '10 KB headers',
          head(
            '/api/notifications/send',
            `content-type: application/json\r\nx-big: ${'h'.repeat(10 * 1024)}\r\ncontent-length: ${send.length}\r\n`,
          ) + send,
          4,
        ],
        ['not HTTP', '\u0000\u0001\u0002 garbage\r\n\r\n', 1],
      ];
      for (const [what, bytes, pieces] of cases) {
        const res = await raw(emu.url, bytes, pieces);
        if (res.status !== null) expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status !== null && res.status >= 400 && res.status !== 400) {
          expect(res.text, what).toMatch(/"error":\{"code":"ERR_/);
        }
      }
      const health = await fetch(`${emu.url}/__health`);
      expect(health.status).toBe(200);
      const journal = (await (await fetch(`${emu.url}/__inspect/requests?limit=100`)).json()) as {
        items: { status: number }[];
      };
      expect(journal.items.filter((e) => e.status >= 500)).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
