/**
 * --data-file over a real socket (docs/reference.md#running-it): state survives a restart of the emulator,
 * and a kill -9 in the middle of writes leaves a file that is still whole JSON.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, startEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';
import { CLI, cleanEnv } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-datafile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (dataFile: string) =>
  startEmulator({ port: 0, dataFile, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent', seed: 3 });

async function sendOver(
  url: string,
  body: unknown,
  appId = 'app-a',
): Promise<{ status: number; body: { notificationId: string } }> {
  const res = await fetch(`${url}/api/notifications/send`, {
    method: 'POST',
    headers: { appid: appId, apikey: 'key', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { notificationId: string } };
}

const greeting = (targets: string[]) => ({
  template: { key: 'greeting', variables: { name: 'Ada' } },
  targets,
  mode: targets.length > 1 ? 'batch' : 'realtime',
});

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
      expect((await second.client.notifications()).items).toMatchObject([
        { notificationId: sent.body.notificationId, targetCount: 2 },
      ]);
      expect((await second.client.requests({ path: '/api/notifications/send' })).total).toBe(1);
      // Open mode remembers the app as before the restart: the inspector's app list names it.
      const apps = (await (await fetch(`${second.url}/__apps`)).json()) as { items: { appId: string }[] };
      expect(apps.items.map((a) => a.appId)).toEqual(['app-a']);
      expect((await second.client.health()).apps).toBe(1);
      // New records join the old ones.
      expect((await sendOver(second.url, greeting(['u3']))).status).toBe(200);
      expect((await second.client.deliveries()).total).toBe(3);
    } finally {
      await second.close();
    }
  });

  it('keeps a campaign sent over the API, its recipients and deliveries across a restart', async () => {
    const file = join(dir, 'campaign-api.json');
    const first = await start(file);
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${first.url}/api${path}`, {
        method,
        headers: { appid: 'app-a', apikey: 'key', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, `${method} ${path}`).toBe(200);
      return (await res.json()) as { id: string };
    };
    const campaign = await api('POST', '/campaigns', { name: 'Spring', templateId: 'plain', deliveryMode: 'batch' });
    await api('POST', `/campaigns/${campaign.id}/recipients`, { userIds: ['r1', 'r2', 'r3'] });
    await api('POST', `/campaigns/${campaign.id}/send`, {});
    await first.client.waitForDeliveries({ campaignId: campaign.id }, { count: 3, timeoutMs: 10_000 });
    const before = await first.client.campaign(campaign.id);
    await first.close();

    const second = await start(file);
    try {
      expect(await second.client.campaign(campaign.id)).toEqual(before);
      expect((await second.client.campaignRecipients(campaign.id)).total).toBe(3);
      const deliveries = await second.client.deliveries({ campaignId: campaign.id });
      expect(deliveries.items.map((d) => d.userId).sort()).toEqual(['r1', 'r2', 'r3']);
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
    const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--data-file', file, '--no-watch'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain(file);
    expect(stderr).toMatch(/not valid JSON/);
  });
});

/** The CLI as a user runs it on `file`, to its exit (a refusal ends it at once). */
const runCli = (file: string) =>
  spawnSync(process.execPath, [CLI, '--port', '0', '--data-file', file, '--no-watch', '--log-level', 'silent'], {
    encoding: 'utf8',
    env: cleanEnv(),
    timeout: 20_000,
  });

const LEFT_UNTOUCHED =
  'The file was left untouched. Name another file, or move or delete this one to start with empty state.';

describe('--data-file: a file that is not an emulator data file', () => {
  it.each([
    [
      'a copy of package.json',
      readFileSync('package.json', 'utf8'),
      /it is not an emulator data file \(it has no "format"/,
    ],
    ['[]', '[]', /it is not an emulator data file \(it holds a list, not an object\)/],
    ['a string', '"state"', /it is not an emulator data file \(it holds a string, not an object\)/],
    ['invalid JSON', '{"deliveries": [', /it is not valid JSON \(/],
    ['a bad record of an earlier version', '{"deliveries":[{"x":1}]}', /deliveries\[0\]\.id: is required: a string/],
    [
      'a bad record',
      '{"format":"notification-emulator-data","version":1,"notifications":[],"deliveries":[{"x":1}]}',
      /deliveries\[0\]\.id: is required: a string/,
    ],
  ])('refuses %s with exit 2, naming the file, no stack trace, every byte kept', (_, text, problem) => {
    const file = join(dir, `refused-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, text);
    const result = runCli(file);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^notification-emulator: cannot start:\n/);
    expect(result.stderr).toContain(`  - --data-file ${file}: `);
    expect(result.stderr).toMatch(problem);
    expect(result.stderr.endsWith(`  - ${LEFT_UNTOUCHED}\n`)).toBe(true);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(join(dir, `.${basename(file)}.tmp`))).toBe(false);
  });

  it('prints what the running guide quotes, word for word', () => {
    const guide = readFileSync('docs/running.md', 'utf8');
    const blocks = [
      ...guide.matchAll(/```\n((?:notification-emulator: cannot start:\n)?(?: {2}- --data-file [^\n]*\n)+[^`]*)```/g),
    ];
    expect(blocks).toHaveLength(2);
    const shown = (block: string, file: string) => block.replaceAll('/work/app/state.json', file);
    const file = join(dir, 'as-in-the-guide.json');
    writeFileSync(file, '{"format":"notification-emulator-data","version":1,"deliveries":[{"x":1}]}');
    expect(runCli(file).stderr).toBe(shown(blocks[0]![1]!, file));
    writeFileSync(file, '{"deliveries":[]}');
    expect(runCli(file).stderr).toContain(shown(blocks[1]![1]!, file));
  });

  it('says how to keep a file an earlier version wrote, and takes it once marked', async () => {
    const file = join(dir, 'earlier.json');
    writeFileSync(file, JSON.stringify({ deliveries: [], notifications: [], droppedDeliveries: 0 }));
    const refused = runCli(file);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      'To keep its records, add "format": "notification-emulator-data", "version": 1 at its top',
    );
    const marked = JSON.stringify({ format: 'notification-emulator-data', version: 1, deliveries: [] }, null, 2);
    writeFileSync(file, marked);
    const emu = await start(file);
    await emu.close();
    expect(readFileSync(file, 'utf8')).toBe(marked);
  });

  it('creates a missing file with the mark; a start and stop without changes leave its bytes', async () => {
    const file = join(dir, 'new-folder', 'state.json');
    const first = await startCli(file);
    const welcome = {
      template: { key: 'welcome-message', variables: { name: 'Ada' } },
      targets: ['u1'],
      mode: 'realtime',
    };
    expect((await sendOver(first.url, welcome)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const written = readFileSync(file, 'utf8');
    expect(JSON.parse(written)).toMatchObject({ format: 'notification-emulator-data', version: 1 });
    const second = await startCli(file);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(written);
  });
});

async function startCli(file: string): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(
    process.execPath,
    ['dist/cli.js', '--port', '0', '--data-file', file, '--log-level', 'silent', '--no-watch'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  for await (const line of createInterface({ input: child.stdout! })) {
    const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
    if (url) return { url, child, exited };
  }
  throw new Error('the CLI ended without a startup line');
}

describe('--data-file: a write that fails', () => {
  it('is logged once, and the next change writes the newest state', async () => {
    const folder = join(dir, 'comes-and-goes');
    const file = join(folder, 'state.json');
    const errors: string[] = [];
    const logger = { error: (m: string) => errors.push(m), warn() {}, info() {}, debug() {} };
    const emu = await startEmulator({ port: 0, dataFile: file, templates: TEST_TEMPLATES, watch: false, logger });
    try {
      rmSync(folder, { recursive: true }); // the folder goes away under the running emulator
      for (const user of ['u1', 'u2']) {
        expect((await sendOver(emu.url, greeting([user]))).status).toBe(200);
        await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 5000 });
        await new Promise((resolve) => setTimeout(resolve, 1200)); // a second write fails the same way
      }
      expect(errors).toEqual([
        expect.stringMatching(/^--data-file .*state\.json: the state could not be saved \(ENOENT/),
      ]);
      mkdirSync(folder);
      expect((await sendOver(emu.url, greeting(['u3']))).status).toBe(200);
      await vi.waitFor(() => expect(existsSync(file)).toBe(true), { timeout: 5000 });
      const users = (JSON.parse(readFileSync(file, 'utf8')).deliveries as { userId: string }[]).map((d) => d.userId);
      expect(users).toEqual(['u1', 'u2', 'u3']);
    } finally {
      await emu.close();
    }
  });
});

describe('--data-file: SIGTERM', () => {
  it('writes pending changes before the CLI exits on SIGTERM', async () => {
    const file = join(dir, 'sigterm.json');
    const { url, child, exited } = await startCli(file);
    const sent = await sendOver(url, {
      template: { key: 'welcome-message', variables: { name: 'Ada' } },
      targets: ['u1'],
      mode: 'realtime',
    });
    expect(sent.status).toBe(200);
    child.kill('SIGTERM'); // at once: well inside the write debounce
    expect(await exited).toBe(0);
    const data = JSON.parse(readFileSync(file, 'utf8'));
    expect(data.deliveries.map((d: { userId: string }) => d.userId)).toEqual(['u1']);
    expect(data.notifications).toHaveLength(1);
  });
});

describe('--data-file: kill -9', () => {
  it('leaves a file that parses as JSON when the process is killed during writes', async () => {
    const file = join(dir, 'killed.json');
    const { url, child, exited } = await startCli(file);
    try {
      // Enough traffic for several coalesced writes, then kill while requests are in flight.
      let stop = false;
      let sent = 0;
      let ok = 0;
      const loop = (async () => {
        while (!stop) {
          await sendOver(url, {
            template: { key: 'welcome-message', variables: { name: 'Ada' } },
            targets: ['u1', 'u2', 'u3'],
            mode: 'batch',
          })
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

describe('--data-file: kill -9 in the middle of a large write', () => {
  it('leaves the last whole file, which a restart loads; only changes after it are lost', async () => {
    const file = join(dir, 'killed-large.json');
    const temp = join(dir, '.killed-large.json.tmp');
    const batch = (n: number) => ({
      template: { key: 'welcome-message', variables: { name: 'Ada' } },
      targets: Array.from({ length: 10_000 }, (_, i) => `user-${n}-${i}`),
      mode: 'batch',
    });
    const { url, child, exited } = await startCli(file);
    const count = () => (JSON.parse(readFileSync(file, 'utf8')).deliveries as unknown[]).length;
    let killedDuringWrite = false;
    try {
      for (let n = 0; n < 4; n++) expect((await sendOver(url, batch(n))).status).toBe(200);
      // The first writes land (about 1 s behind at most), the file holds whole sends.
      const deadline = Date.now() + 15_000;
      while (count() < 40_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(count()).toBe(40_000);
      // More sends, then a kill -9 while their write is being built or renamed.
      for (let n = 4; n < 8; n++) expect((await sendOver(url, batch(n))).status).toBe(200);
      while (!existsSync(temp) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      killedDuringWrite = existsSync(temp);
      child.kill('SIGKILL');
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    expect(killedDuringWrite).toBe(true);
    const kept = count(); // whole JSON: the last complete write, old or new
    expect([40_000, 80_000]).toContain(kept);
    const restarted = await start(file);
    try {
      expect((await restarted.client.deliveries({ limit: 1 })).total).toBe(kept);
      expect((await sendOver(restarted.url, greeting(['again']))).status).toBe(200);
    } finally {
      await restarted.close();
    }
  }, 60_000);
});

describe('--data-file: app clocks and active sets', () => {
  it("keeps each app's own clock and active set across a restart, and a reset of the app drops them", async () => {
    const file = join(dir, 'app-states.json');
    const control = (url: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
    const scenario = {
      name: 'outage',
      rules: [{ match: { path: '/api/campaigns/upload' }, fault: { error: 'ERR_OPERATION_FAILED' } }],
    };
    const first = await startEmulator({
      port: 0,
      dataFile: file,
      templates: TEST_TEMPLATES,
      scenarios: [scenario],
      watch: false,
      logLevel: 'silent',
    });
    expect((await control(first.url, 'POST', '/__clock?appId=app-a', { now: '2031-01-02T03:04:05Z' })).status).toBe(
      200,
    );
    expect((await control(first.url, 'PUT', '/__scenarios/active?appId=app-b', { names: ['outage'] })).status).toBe(
      200,
    );
    await first.close();

    const second = await startEmulator({
      port: 0,
      dataFile: file,
      templates: TEST_TEMPLATES,
      scenarios: [scenario],
      watch: false,
      logLevel: 'silent',
    });
    try {
      expect((await control(second.url, 'GET', '/__clock?appId=app-a')).body).toEqual({
        now: '2031-01-02T03:04:05.000Z',
        mode: 'manual',
        appId: 'app-a',
        scope: 'app',
      });
      expect((await control(second.url, 'GET', '/__scenarios?appId=app-b')).body).toMatchObject({
        active: ['outage'],
        scope: 'app',
      });
      expect((await control(second.url, 'GET', '/__clock?appId=app-b')).body).toMatchObject({ scope: 'shared' });
      await control(second.url, 'POST', '/__reset?appId=app-a');
      await second.app.emulator.store.flush();
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { appStates: { appId: string }[] };
      expect(saved.appStates.map((s) => s.appId)).toEqual(['app-b']);
    } finally {
      await second.close();
    }
  });
});
