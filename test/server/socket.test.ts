/**
 * A real socket (docs/reference.md#running-it, "in tests"): startEmulator on port 0, a send over HTTP with
 * the production prefix, the records visible through the control plane.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';

let running: RunningEmulator | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('startEmulator on a real socket', () => {
  it('binds a free port and serves a send under /v3/business-messaging', async () => {
    running = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.port).toBeGreaterThan(0);
    const res = await fetch(`${running.url}/v3/business-messaging/api/notifications/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', appid: 'sock', apikey: 'k' },
      body: JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' }),
    });
    expect(res.status).toBe(200);
    const notification = (await res.json()) as { notificationId: string };
    expect(notification.notificationId).toMatch(/^notif_[0-9a-f]{24}$/);
    const list = (await (await fetch(`${running.url}/__inspect/deliveries?appId=sock`)).json()) as { total: number };
    expect(list.total).toBe(1);
  });

  it('answers the error envelope over the socket', async () => {
    running = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    const res = await fetch(`${running.url}/api/notifications/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ERR_UNAUTHORIZED');
  });

  it('answers 413 ERR_PAYLOAD_TOO_LARGE for a chunked body over the limit (no content-length)', async () => {
    running = await startEmulator({
      port: 0,
      templates: TEST_TEMPLATES,
      watch: false,
      logLevel: 'silent',
      bodyLimitBytes: 256,
    });
    const chunk = new TextEncoder().encode(JSON.stringify({ title: 'x'.repeat(200) }));
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await fetch(`${running.url}/api/notifications/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', appid: 'a', apikey: 'k' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('close() is idempotent and frees the port', async () => {
    running = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    const { url } = running;
    await running.close();
    await running.close();
    await expect(fetch(`${url}/__health`)).rejects.toThrow();
  });

  it('refuses to start on a port already in use, with the system error', async () => {
    running = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    await expect(
      startEmulator({ port: running.port, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect((await fetch(`${running.url}/__health`)).status).toBe(200);
  });

  // `ss` shows a listening socket's accept-queue length as Send-Q.
  it.skipIf(!hasSs())('queues up to 4,096 connections before accepting them (capped by somaxconn)', async () => {
    running = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    const line = execFileSync('ss', ['-ltnH', `sport = :${running.port}`], { encoding: 'utf8' }).trim();
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(Number(line.split(/\s+/)[2])).toBe(Math.min(4096, somaxconn));
  });
});

function hasSs(): boolean {
  try {
    execFileSync('ss', ['-V'], { stdio: 'ignore' });
    return process.platform === 'linux';
  } catch {
    return false;
  }
}
