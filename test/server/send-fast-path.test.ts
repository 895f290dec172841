/**
 * The send fast path (src/http/send-fast-path.ts) against the app it stands in for: the same
 * requests, sent over sockets to a server built as startEmulator builds it (emulatorListener:
 * the fast path in front) and to one served by @hono/node-server alone (the app only, the
 * documented way to embed it), give the same status, headers and body, and leave the same
 * journal entry. Both run the same seed on a manual clock, so ids and times match too. A spy
 * on the fast path checks which requests it took, so that one that never engages cannot pass.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createServer } from 'node:http';
import { createApp, type EmulatorApp } from '../../src/index.js';
import { createServedApp, type ServedApp } from '../../src/app.js';
import { emulatorListener } from '../../src/server.js';
import type { JournalEntry } from '../../src/schemas/records.js';
import { CTA, manualClock, TEST_TEMPLATES } from '../helpers/app.js';

const BODY_LIMIT = 200_000;
const options = () => ({
  templates: TEST_TEMPLATES,
  watch: false,
  logLevel: 'silent' as const,
  seed: 7,
  clock: manualClock(),
  bodyLimitBytes: BODY_LIMIT,
  scenarios: [{ name: 'refuse', rules: [{ match: { path: '/api/notifications/send' }, fault: { status: 500 } }] }],
});

let withLane: { served: ServedApp; server: http.Server; url: string; close(): Promise<void> };
let appOnly: { app: EmulatorApp; server: ServerType; url: string };
let lane: MockInstance<ServedApp['sendFastPath']>;

beforeAll(async () => {
  const served = createServedApp(options());
  lane = vi.spyOn(served, 'sendFastPath');
  const laneServer = createServer(emulatorListener(served));
  await new Promise<void>((resolve) => laneServer.listen(0, '127.0.0.1', resolve));
  withLane = {
    served,
    server: laneServer,
    url: `http://127.0.0.1:${(laneServer.address() as AddressInfo).port}`,
    close: async () => {
      laneServer.closeAllConnections();
      await new Promise((resolve) => laneServer.close(resolve));
      await served.app.close();
    },
  };
  const app = createApp(options());
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  appOnly = { app, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
});

afterAll(async () => {
  await withLane.close();
  await new Promise((resolve) => appOnly.server.close(resolve));
  await appOnly.app.close();
});

interface Sent {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

const AUTH = { appid: 'app-test', apikey: 'key-test', 'content-type': 'application/json' };

/** One request with exactly these headers (the Host included, so both servers see the same). */
function send(base: string, { method = 'POST', path = '/api/notifications/send', headers = AUTH, body }: Sent) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers: { host: 'localhost', ...headers }, agent: false });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: {
            'content-type': res.headers['content-type'],
            'content-length': res.headers['content-length'],
            allow: res.headers.allow,
          },
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function lastEntry(base: string): Promise<Omit<JournalEntry, 'durationMs'>> {
  const page = (await (await fetch(`${base}/__inspect/requests?order=desc&limit=1`)).json()) as {
    items: JournalEntry[];
  };
  const { durationMs, ...entry } = page.items[0]!;
  expect(durationMs).toBeGreaterThanOrEqual(0);
  return entry;
}

/** The same request to both; their answers and journal entries must agree. Returns whether the lane took it. */
async function sameOnBoth(request: Sent): Promise<{ taken: boolean; answer: Answer }> {
  const calls = lane.mock.results.length;
  const answer = await send(withLane.url, request);
  const expected = await send(appOnly.url, request);
  expect(answer).toEqual(expected);
  expect(await lastEntry(withLane.url)).toEqual(await lastEntry(appOnly.url));
  // The lane sees every request to its server; the first after `calls` is this one.
  expect(lane.mock.calls[calls]![0].url).toBe(request.path ?? '/api/notifications/send');
  return { taken: lane.mock.results[calls]!.value as boolean, answer };
}

const json = (value: unknown) => JSON.stringify(value);
const realtime = (extra: object = {}) =>
  json({ template: { key: 'plain' }, targets: ['user-1'], mode: 'realtime', ...extra });
/** A batch of `count` targets named by `target`. */
const batch = (count: number, target: (i: number) => string) =>
  json({ template: { key: 'plain' }, targets: Array.from({ length: count }, (_, i) => target(i)), mode: 'batch' });
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('the send lane against the app, over sockets', () => {
  it.each<[string, Sent, number]>([
    ['a realtime send', { body: realtime({ title: 'T', tag: 'x' }) }, 200],
    [
      'a batch send with variables per target and a repeated target',
      {
        body: json({
          template: {
            key: 'order-confirmation',
            variables: { a: { customerName: 'Ann', cta: CTA }, b: { customerName: 'Bo', cta: CTA } },
          },
          targets: ['a', 'b', 'a'],
          mode: 'batch',
        }),
      },
      200,
    ],
    [
      'the template by id',
      {
        body: json({
          template: { id: 'aaaaaaaaaaaaaaaaaaaaaaaa', variables: { customerName: 'A', cta: CTA } },
          targets: ['u'],
          mode: 'realtime',
        }),
      },
      200,
    ],
    ['the other prefix', { path: '/v3/business-messaging/api/notifications/send', body: realtime() }, 200],
    [
      'a JSON type with a suffix and parameters',
      { headers: { ...AUTH, 'content-type': 'application/vnd.x+json; charset=utf-8' }, body: realtime() },
      200,
    ],
    ['a BOM before the JSON', { body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(realtime())]) }, 200],
    [
      'invalid UTF-8 in a string',
      {
        body: Buffer.concat([
          Buffer.from('{"template":{"key":"plain"},"targets":["u'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('"],"mode":"realtime"}'),
        ]),
      },
      200,
    ],
    [
      'a "__proto__" variable',
      {
        body:
          '{"template":{"key":"greeting","variables":{"__proto__":{"x":1},"name":"A"}},' +
          '"targets":["u"],"mode":"realtime"}',
      },
      400,
    ],
    ['malformed JSON', { body: '{"template":' }, 400],
    ['an empty body', { body: '' }, 400],
    ['a blank body', { body: ' \n ' }, 400],
    ['a body that is not an object', { body: '[1,2]' }, 400],
    ['no targets', { body: json({ template: { key: 'plain' }, mode: 'realtime' }) }, 400],
    ['a blank target', { body: json({ template: { key: 'plain' }, targets: ['  '], mode: 'realtime' }) }, 400],
    ['another mode', { body: realtime({ mode: 'bulk' }) }, 400],
    ['two targets in realtime', { body: realtime({ targets: ['a', 'b'] }) }, 400],
    ['10,001 targets in a batch', { body: batch(10_001, (i) => `u${i}`) }, 400],
    // Over 64 KiB: several chunks, each ASCII (read as Latin-1, chunk by chunk).
    ['10,000 targets in a batch', { body: batch(10_000, (i) => `u${i}`) }, 200],
    [
      // ASCII chunks, then two-, three- and four-byte characters, some cut in two by a chunk's end.
      'a batch of several chunks whose later ones hold non-ASCII text',
      { body: batch(10_000, (i) => (i < 6_000 ? `u${i}` : `ü€😀${i}`)) },
      200,
    ],
    ['an unknown template', { body: realtime({ template: { key: 'nope' } }) }, 404],
    ['a draft template', { body: realtime({ template: { key: 'draft-one' } }) }, 400],
    [
      'a missing variable',
      { body: realtime({ template: { key: 'order-confirmation', variables: { customerName: 'A' } } }) },
      400,
    ],
    [
      'a body nested too deep',
      { body: `{"template":{"key":"plain","variables":{"a":${nested(300)}}},"targets":["u"],"mode":"realtime"}` },
      400,
    ],
  ])('takes %s and answers as the app does', async (_name, request, status) => {
    const { taken, answer } = await sameOnBoth(request);
    expect(answer.status).toBe(status);
    expect(taken).toBe(true);
  });

  it.each<[string, Sent, number]>([
    ['another content type', { headers: { ...AUTH, 'content-type': 'text/plain' }, body: realtime() }, 400],
    ['no content type', { headers: { appid: 'app-test', apikey: 'key-test' }, body: realtime() }, 400],
    ['no apikey', { headers: { appid: 'app-test', 'content-type': 'application/json' }, body: realtime() }, 401],
    ['a Host naming another app', { headers: { ...AUTH, host: 'other.api-eu.example.com' }, body: realtime() }, 401],
    ['a query string', { path: '/api/notifications/send?x=1', body: realtime() }, 200],
    ['a trailing slash', { path: '/api/notifications/send/', body: realtime() }, 404],
    ['a chunked body', { headers: { ...AUTH, 'transfer-encoding': 'chunked' }, body: realtime() }, 200],
    ['a body over the limit', { body: json({ pad: 'x'.repeat(BODY_LIMIT) }) }, 413],
    [
      'an unknown scenario in the header',
      { headers: { ...AUTH, 'x-emulator-scenario': 'nope' }, body: realtime() },
      400,
    ],
    ['a scenario in the header', { headers: { ...AUTH, 'x-emulator-scenario': 'refuse' }, body: realtime() }, 500],
    ['another method', { method: 'GET' }, 405],
  ])('leaves %s to the app', async (_name, request, status) => {
    const { taken, answer } = await sameOnBoth(request);
    expect(answer.status).toBe(status);
    expect(taken).toBe(false);
  });

  it('leaves every send to the app while a scenario is active', async () => {
    const activate = (base: string, names: string[]) =>
      fetch(`${base}/__scenarios/active`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: json({ names }),
      });
    for (const base of [withLane.url, appOnly.url]) expect((await activate(base, ['refuse'])).status).toBe(200);
    try {
      const { taken, answer } = await sameOnBoth({ body: realtime() });
      expect([answer.status, taken]).toEqual([500, false]);
    } finally {
      for (const base of [withLane.url, appOnly.url]) await activate(base, []);
    }
    expect((await sameOnBoth({ body: realtime() })).taken).toBe(true);
  });

  it('journals a client that hangs up mid-body as 499, as the app does', async () => {
    const hangUp = async (base: string) => {
      const { hostname, port } = new URL(base);
      const socket = net.connect(Number(port), hostname);
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      const head = Object.entries({ host: 'localhost', ...AUTH, 'content-length': '500' })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(`POST /api/notifications/send HTTP/1.1\r\n${head}\r\n{"mode":"realtime"`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      await vi.waitFor(async () => expect((await lastEntry(base)).status).toBe(499));
    };
    const calls = lane.mock.results.length;
    await hangUp(withLane.url);
    await hangUp(appOnly.url);
    expect(lane.mock.results[calls]!.value).toBe(true);
    expect(await lastEntry(withLane.url)).toEqual(await lastEntry(appOnly.url));
  });

  it('agrees with the app on generated sends', async () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.dictionary(fc.string(), fc.string()),
    );
    const sendBody = fc.record(
      {
        template: fc.oneof(
          fc.record(
            {
              key: fc.constantFrom('plain', 'greeting', 'order-confirmation', 'draft-one', 'nope', ''),
              variables: fc.dictionary(fc.constantFrom('name', 'customerName', 'cta', 'other'), value),
            },
            { requiredKeys: [] },
          ),
          value,
        ),
        targets: fc.oneof(fc.array(fc.string({ minLength: 0, maxLength: 6 }), { maxLength: 4 }), value),
        mode: fc.constantFrom('realtime', 'batch', 'other'),
        title: fc.oneof(fc.string(), fc.constant(null)),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(sendBody, async (body) => {
        const { taken } = await sameOnBoth({ body: json(body) });
        expect(taken).toBe(true);
      }),
      { numRuns: 60, seed: 20261126 },
    );
  });
});
