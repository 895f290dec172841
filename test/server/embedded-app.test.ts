/**
 * An app served the ordinary Hono way (@hono/node-server's `serve` over `app.fetch`, no fast
 * path) has the whole behaviour, the socket-level faults included: a scripted drop closes
 * the connection and is journaled as 499.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterEach, expect, it } from 'vitest';
import { createApp, type EmulatorApp } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';

const AUTH = { appid: 'app-test', apikey: 'key-test', 'content-type': 'application/json' };
const PLAIN = JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });

let served: { app: EmulatorApp; server: ServerType } | undefined;
afterEach(async () => {
  if (!served) return;
  await new Promise((resolve) => served!.server.close(resolve));
  await served.app.close();
  served = undefined;
});

it('drops the connection on a drop fault when served with serve({ fetch: app.fetch })', async () => {
  const app = createApp({
    templates: TEST_TEMPLATES,
    watch: false,
    logLevel: 'silent',
    scenarios: [{ name: 'drop-once', rules: [{ match: { path: '/api/notifications/send' }, fault: { drop: true } }] }],
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  served = { app, server };
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = (headers: Record<string, string>) =>
    fetch(`${url}/api/notifications/send`, { method: 'POST', headers, body: PLAIN });
  await expect(post({ ...AUTH, 'x-emulator-scenario': 'drop-once' })).rejects.toThrow(/fetch failed/);
  expect((await post(AUTH)).status).toBe(200);
  const journal = (await (await fetch(`${url}/__inspect/requests?scenario=drop-once`)).json()) as { items: unknown[] };
  expect(journal.items).toEqual([expect.objectContaining({ status: 499, scenario: 'drop-once' })]);
});
