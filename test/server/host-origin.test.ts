/**
 * The control plane's Host and Origin checks over a real socket (docs/reference.md#security):
 * the Host header exactly as a browser on a rebinding name sends it, a cross-site form post,
 * the typed client (no Origin), and a reverse proxy of the user's that keeps the Host.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** node:http rather than fetch: fetch would not let a test choose the Host header. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A reverse proxy of the user's: forwards everything to `target`, keeping the Host the browser sent. */
function keepHostProxy(target: number): Promise<Server> {
  const proxy = createServer((incoming, outgoing) => {
    const upstream = request(
      { host: '127.0.0.1', port: target, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (res) => {
        outgoing.writeHead(res.statusCode!, res.headers);
        res.pipe(outgoing);
      },
    );
    incoming.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

const PLAIN = JSON.stringify({ template: { key: 'plain' }, targets: ['user-42'], mode: 'realtime' });

describe('host and origin checks on a real socket', () => {
  let emu: RunningEmulator;
  let proxy: Server;
  let proxyPort: number;
  const deliveries = () => emu.app.emulator.store.stats().deliveries;
  const sendOne = async (host = 'localhost') => {
    const headers = { host, appid: 'a', apikey: 'k', 'content-type': 'application/json' };
    expect((await send(emu.port, 'POST', '/api/notifications/send', headers, PLAIN)).status).toBe(200);
  };

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      host: '127.0.0.1',
      watch: false,
      logLevel: 'silent',
      templates: TEST_TEMPLATES,
      allowedHosts: ['emulator.dev.example'],
    });
    proxy = await keepHostProxy(emu.port);
    proxyPort = (proxy.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await emu?.close();
  });

  it('refuses the journal to a rebinding Host, and the API still answers it (the send lane too)', async () => {
    await sendOne('attacker.example');
    const res = await send(emu.port, 'GET', '/__inspect/requests', { host: `attacker.example:${emu.port}` });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toMatchObject({
      code: 'ERR_FORBIDDEN',
      details: { host: 'not in --allowed-hosts' },
    });
    expect(res.body).not.toContain('user-42');
  });

  it('refuses a cross-site form post to /__reset and keeps every record', async () => {
    const before = deliveries();
    expect(before).toBeGreaterThan(0);
    const form = { origin: 'https://evil.example', 'content-type': 'text/plain', host: `127.0.0.1:${emu.port}` };
    const res = await send(emu.port, 'POST', '/__reset', form, 'a=b');
    expect(res.status).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(deliveries()).toBe(before);
  });

  it('takes the typed client’s writes (no Origin) and the page’s own-origin writes', async () => {
    await emu.client.reset();
    expect(deliveries()).toBe(0);
    await sendOne();
    const own = { host: `localhost:${emu.port}`, origin: `http://localhost:${emu.port}` };
    expect((await send(emu.port, 'DELETE', '/__inspect', own)).status).toBe(200);
    expect(deliveries()).toBe(0);
  });

  it('works through a proxy that keeps a listed Host, the page’s writes included; not for others', async () => {
    await sendOne();
    const listed = { host: 'emulator.dev.example', accept: 'text/html' };
    const page = await send(proxyPort, 'GET', '/__/', listed);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const write = { host: 'emulator.dev.example', origin: 'https://emulator.dev.example' };
    expect((await send(proxyPort, 'POST', '/__reset', write)).status).toBe(200);
    expect(deliveries()).toBe(0);
    expect((await send(proxyPort, 'GET', '/__health', { host: 'other.dev.example' })).status).toBe(403);
  });
});
