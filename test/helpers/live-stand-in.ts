/**
 * A stand-in for the live service, for `verify` (and any test that needs "the real thing"):
 * an emulator on port 0 playing the live account (strict auth, one app, the live key), with a
 * small recording proxy in front of it. The proxy forwards every request, records what it
 * forwarded and what came back, and can change answers the way a vendor change would (a new
 * field, another error code, another status, a wrong type): a test names the changes it wants.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { LIVE_KEY, tempDir } from './live-account.js';

/** A request as the proxy forwarded it, and the status the caller got. */
export interface Forwarded {
  method: string;
  path: string;
  status: number;
}

/** An answer the proxy may rewrite: `body` is the parsed JSON (undefined when not JSON). */
export interface ProxiedAnswer {
  status: number;
  body: unknown;
}

/** A vendor change: the answer to give instead, or undefined to leave it as it is. */
export type VendorChange = (
  request: { method: string; path: string },
  answer: ProxiedAnswer,
) => ProxiedAnswer | undefined;

const pathOnly = (path: string) => path.split('?')[0]!.replace(/^\/v3\/business-messaging/, '');
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const withCode = (body: unknown, code: string) =>
  isObject(body) && isObject(body.error) ? { ...body, error: { ...body.error, code } } : body;

/** The four changes the verify tests make: each is what a vendor release could do. */
export const VENDOR_CHANGES = {
  /** Listed templates carry a new field. */
  newTemplateField: ({ method, path }, answer) =>
    method === 'GET' && pathOnly(path) === '/api/templates' && Array.isArray(answer.body)
      ? { ...answer, body: answer.body.map((t) => (isObject(t) ? { ...t, x_new: 'added by the vendor' } : t)) }
      : undefined,
  /** An unknown template on a send gets a code of its own. */
  otherErrorCode: ({ method, path }, answer) =>
    method === 'POST' && pathOnly(path) === '/api/notifications/send' && answer.status === 404
      ? { ...answer, body: withCode(answer.body, 'ERR_TEMPLATE_NOT_FOUND') }
      : undefined,
  /** The batch limit is answered 422. */
  otherLimitStatus: (_request, answer) =>
    answer.status === 400 && isObject(answer.body) && isObject(answer.body.error)
      ? answer.body.error.code === 'ERR_TARGET_LIMIT_EXCEEDED'
        ? { ...answer, status: 422 }
        : undefined
      : undefined,
  /** One template's `createdAt` comes as epoch milliseconds. */
  wrongType: ({ method, path }, answer) =>
    method === 'GET' && /^\/api\/templates\/[^/]+$/.test(pathOnly(path)) && isObject(answer.body)
      ? { ...answer, body: { ...answer.body, createdAt: Date.parse(String(answer.body.createdAt)) } }
      : undefined,
} satisfies Record<string, VendorChange>;

export interface LiveStandIn {
  appId: string;
  /** The base URL to give `verify` (through the proxy). */
  baseUrl: string;
  /** The emulator behind the proxy. */
  emulator: RunningEmulator;
  /** Every request the proxy forwarded, in order. */
  forwarded: Forwarded[];
  /** The changes applied from now on (none: answers pass unchanged). */
  changes: VendorChange[];
  /** The account's API, straight to the emulator (not recorded). */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** Everything a probe could have changed: deliveries, notifications, campaigns, templates, channels. */
  state(): Promise<unknown>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The proxy's handler: forward, apply the changes, answer, record. */
function proxyHandler(upstream: string, stand: Pick<LiveStandIn, 'forwarded' | 'changes'>) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const headers: Record<string, string> = {};
    for (const name of ['appid', 'apikey', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const body = await readBody(req);
    const answer = await fetch(`${upstream}${path}`, { method, headers, body: body.length ? body : undefined });
    const text = await answer.text();
    let proxied: ProxiedAnswer = { status: answer.status, body: undefined };
    try {
      proxied.body = JSON.parse(text);
    } catch {
      // Not JSON: passed on as it came.
    }
    const request = { method, path };
    for (const change of stand.changes) proxied = change(request, proxied) ?? proxied;
    const out = proxied.body === undefined ? text : JSON.stringify(proxied.body);
    const copied = ['content-type', 'x-total-count', 'retry-after'].flatMap((name) => {
      const value = answer.headers.get(name);
      return value === null ? [] : [[name, value] as const];
    });
    stand.forwarded.push({ method, path, status: proxied.status });
    res.writeHead(proxied.status, Object.fromEntries(copied));
    res.end(out);
  };
}

/** Starts the account (templates and channels made by `seed` through its API) and the proxy before it. */
export async function startLiveStandIn(
  appId: string,
  seed: (call: LiveStandIn['call']) => Promise<void>,
): Promise<LiveStandIn> {
  const empty = tempDir('live-stand-in-');
  const emulator = await startEmulator({
    port: 0,
    fixturesDir: empty,
    scenarios: [],
    logLevel: 'silent',
    watch: false,
    seed: 11,
    apps: [{ appId, apiKey: LIVE_KEY, region: 'eu' }],
  });
  const call: LiveStandIn['call'] = async (method, path, body) => {
    const response = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { appid: appId, apikey: LIVE_KEY, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  await seed(call);
  const stand = { forwarded: [] as Forwarded[], changes: [] as VendorChange[] };
  const server: Server = createServer((req, res) => {
    proxyHandler(emulator.url, stand)(req, res).catch((error: unknown) => {
      res.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const inspect = async (path: string) => (await fetch(`${emulator.url}${path}`)).json();
  return {
    appId,
    baseUrl: `http://127.0.0.1:${port}/v3/business-messaging`,
    emulator,
    forwarded: stand.forwarded,
    get changes() {
      return stand.changes;
    },
    set changes(list: VendorChange[]) {
      stand.changes = list;
    },
    call,
    state: async () => ({
      deliveries: await inspect('/__inspect/deliveries?limit=10000'),
      notifications: await inspect('/__inspect/notifications'),
      campaigns: await inspect('/__inspect/campaigns'),
      templates: (await call('GET', '/api/templates?limit=100')).body,
      channels: (await call('GET', '/api/channels?limit=100')).body,
    }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await emulator.close();
      rmSync(empty, { recursive: true, force: true });
    },
  };
}
