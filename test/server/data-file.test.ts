/**
 * --data-file over a real socket (CONTRACT §9): state survives a restart of the emulator,
 * and a kill -9 in the middle of writes leaves a file that is still whole JSON.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, startEmulator, type RunningEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-datafile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (dataFile: string) =>
  startEmulator({ port: 0, dataFile, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent', seed: 3 });

async function sendOver(url: string, body: unknown, appId = 'app-a'): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/api/notifications/send`, {
    method: 'POST',
    headers: { appid: appId, apikey: 'key', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const greeting = (targets: string[]) => ({ template: { key: 'greeting', variables: { name: 'Ada' } }, targets, mode: targets.length > 1 ? 'batch' : 'realtime' });

describe('--data-file: restart', () => {
  it('keeps notifications, deliveries and the journal across a restart', async () => {
    const file = join(dir, 'restart.json');
    const first = await start(file);
    const sent = await sendOver(first.url, greeting(['u1', 'u2']));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await first.close();

    const second = await start(file);
    try {
      const deliveries = await second.client.deliveries({ notificationId: sent.body.notificationId });
      expect(deliveries.total).toBe(2);
      expect(deliveries.items.map((d) => d.userId)).toEqual(['u1', 'u2']);
      expect((await second.client.notifications()).items).toMatchObject([{ notificationId: sent.body.notificationId, targetCount: 2 }]);
      expect((await second.client.requests({ path: '/api/notifications/send' })).total).toBe(1);
      // New records join the old ones.
      await sendOver(second.url, greeting(['u3']));
      expect((await second.client.deliveries()).total).toBe(3);
    } finally {
      await second.close();
    }
  });

  it('keeps a campaign, its recipients and its deliveries across a restart', async () => {
    const file = join(dir, 'campaign.json');
    const first = await start(file);
    const { store } = first.app.emulator;
    const now = '2030-01-01T00:00:00.000Z';
    store.insertCampaign({
      id: 'c0ffee0000000000000000aa', appId: 'app-a', name: 'Spring', templateId: 'tpl', status: 'sent', deliveryMode: 'batch',
      tag: null, scheduledAt: null, recipientCount: 1, sentCount: 1, failedCount: 0, createdAt: now, updatedAt: now, startedAt: now, completedAt: now,
    });
    store.addRecipients('c0ffee0000000000000000aa', [
      { id: 'r1', campaignId: 'c0ffee0000000000000000aa', appId: 'app-a', userId: 'u1', variables: {}, status: 'sent', failureReason: null, deliveryId: 'd1', createdAt: now, updatedAt: now },
    ]);
    store.addDeliveries([
      { id: 'd1', appId: 'app-a', notificationId: null, campaignId: 'c0ffee0000000000000000aa', userId: 'u1', templateId: 'tpl', templateKey: 'plain', channels: ['in_app'], mode: 'batch', title: null, tag: null, variables: {}, rendered: {}, pushData: null, status: 'sent', failureReason: null, scenario: null, createdAt: now },
    ]);
    await first.close();

    const second = await start(file);
    try {
      expect(second.app.emulator.store.getCampaign('c0ffee0000000000000000aa')).toMatchObject({ name: 'Spring', status: 'sent' });
      expect(second.app.emulator.store.recipients('c0ffee0000000000000000aa')).toMatchObject([{ userId: 'u1', deliveryId: 'd1' }]);
      expect(await second.client.deliveries({ campaignId: 'c0ffee0000000000000000aa' })).toMatchObject({ total: 1, items: [{ id: 'd1' }] });
    } finally {
      await second.close();
    }
  });

  it('refuses to start on a corrupt data file, naming it, and leaves it as it was', async () => {
    const file = join(dir, 'corrupt.json');
    writeFileSync(file, '{"deliveries": [');
    const error = await start(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe('{"deliveries": [');
  });

  it('the CLI exits 2 with a message naming a corrupt data file', async () => {
    const file = join(dir, 'corrupt-cli.json');
    writeFileSync(file, 'not json');
    const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--data-file', file, '--no-watch'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain(file);
    expect(stderr).toMatch(/not valid JSON/);
  });
});

describe('--data-file: kill -9', () => {
  it('leaves a file that parses as JSON when the process is killed during writes', async () => {
    const file = join(dir, 'killed.json');
    const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--data-file', file, '--log-level', 'silent', '--no-watch'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let running: RunningEmulator['url'] | undefined;
    try {
      const lines = createInterface({ input: child.stdout! });
      for await (const line of lines) {
        const match = /listening on (http:\/\/\S+)/.exec(line);
        if (match) {
          running = match[1];
          break;
        }
      }
      expect(running).toBeDefined();
      const url = running!;
      // Enough traffic for several coalesced writes, then kill while requests are in flight.
      let stop = false;
      let sent = 0;
      let ok = 0;
      const loop = (async () => {
        while (!stop) {
          await sendOver(url, { template: { key: 'welcome-message', variables: { name: 'Ada' } }, targets: ['u1', 'u2', 'u3'], mode: 'batch' })
            .then((res) => (ok += res.status === 200 ? 1 : 0))
            .catch(() => {});
          sent++;
        }
      })();
      while (sent < 300) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill('SIGKILL');
      stop = true;
      await loop;
      expect(ok).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const data = JSON.parse(readFileSync(file, 'utf8'));
    expect(Array.isArray(data.deliveries)).toBe(true);
    expect(Array.isArray(data.campaigns)).toBe(true);
  });
});
