/**
 * The CLI as a user runs it (docs/reference.md#running-it): `node dist/cli.js`, the startup line with the
 * bound URL, a request, SIGTERM → exit 0; bad flags and fixtures → a message and exit 2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { CLI, cleanEnv, startCli as start } from '../helpers/cli.js';
import { bundledTemplatesCopy } from '../helpers/fixtures.js';

const run = (args: string[], cwd?: string) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: cleanEnv(), timeout: 20_000, cwd });
// Never the repository's ./fixtures: a user may have put an apps.json there.
const FIXTURES = bundledTemplatesCopy('emu-cli-fixtures-');

describe('notification-emulator CLI', () => {
  it('prints the bound URL, serves requests, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--fixtures', FIXTURES, '--log-level', 'silent'], {
      env: cleanEnv(),
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /notification-emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before the startup line: ${stdout}`)));
    });
    const res = await fetch(`${url}/api/notifications/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', appid: 'cli', apikey: 'k' },
      body: JSON.stringify({ template: { key: 'legacy-newsletter' }, targets: ['u1'], mode: 'realtime' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ERR_TEMPLATE_NOT_APPROVED');
    const health = (await (await fetch(`${url}/__health`)).json()) as { status: string; templates: number };
    expect(health).toMatchObject({ status: 'ok' });
    expect(health.templates).toBeGreaterThanOrEqual(5);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it.each([
    [['--port', 'abc'], /--port/],
    [['--nope'], /nope/],
    [['--log-level', 'loud'], /--log-level/],
  ])('exits 2 with a clear message for %j', (args, pattern) => {
    const result = run(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/cannot start/);
    expect(result.stderr).toMatch(pattern);
    expect(result.stdout).toBe('');
  });

  it.skipIf(!existsSync('/proc/self'))('exits 2 naming a data file whose folder cannot be made (under /proc)', () => {
    // Node's recursive mkdir loops for ever there: the start must say why instead of spinning.
    const result = run(['--port', '0', '--data-file', '/proc/no-such-folder/state.json']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /--data-file \/proc\/no-such-folder\/state.json: its folder cannot be created \(ENOENT/,
    );
  });

  it('exits 1 with the reason and the flag to change when it cannot listen', () => {
    // 192.0.2.1 is reserved for documentation (RFC 5737): no machine has it.
    const result = run(['--port', '0', '--host', '192.0.2.1']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^notification-emulator: cannot listen: the address is not one of this machine's; use --host/,
    );
    expect(result.stderr).toMatch(/EADDRNOTAVAIL/);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('prints usage and exits 0 for --help', () => {
    const result = run(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Usage:/);
    expect(result.stdout).toMatch(/--port/);
  });

  it.each([
    [['--port', '-1'], '--port: expected a whole number from 0 to 65535, written in digits (got "-1")'],
    [['--port', '70000'], '--port: expected a whole number from 0 to 65535, written in digits (got "70000")'],
    [
      ['--body-limit', '5xb'],
      '--body-limit: expected a size in bytes, or with a unit: 512kb, 50mb, 1gb (at most 2gb) (got "5xb")',
    ],
  ])('refuses %j in one plain line naming the flag and what it accepts, exit 2', (args, line) => {
    const result = run(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`notification-emulator: cannot start:\n  - ${line}\n`);
  });

  it('gives pull, check-fixtures and verify the same usage in the top-level help as in their own', () => {
    const top = run(['--help']).stdout;
    for (const command of ['pull', 'check-fixtures', 'verify']) {
      const own = run([command, '--help']).stdout;
      // The usage, which may wrap onto an indented second line, as one line.
      const usage = /^Usage: (.+(?:\n {5,}.+)?)/.exec(own)![1]!.replace(/\s*\n\s+/g, ' ');
      expect(top, command).toContain(`  ${usage}\n`);
      for (const flag of own.match(/^ {2}--[a-z-]+/gm)!.map((f) => f.trim())) {
        if (flag !== '--help') expect(top, `${command} ${flag}`).toContain(flag);
      }
    }
  });

  it('exits 0 on SIGINT sent the moment the startup line appears', async () => {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--fixtures', FIXTURES, '--log-level', 'silent'], {
      env: cleanEnv(),
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening on')) child.kill('SIGINT');
    });
    expect(await exited).toBe(0);
  });

  it('warns on stderr when the fixtures folder holds no templates', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-cli-empty-'));
    const child = spawn(process.execPath, [CLI, '--port', '0', '--fixtures', dir, '--log-level', 'warn'], {
      env: cleanEnv(),
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('no templates found')) resolve();
      });
      child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    expect(stderr).toContain(dir);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('exits 2 naming the file for a bad fixture', () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-cli-'));
    mkdirSync(join(dir, 'templates'));
    writeFileSync(join(dir, 'templates', 'broken.json'), JSON.stringify({ key: 'x', status: 'live' }));
    const result = run(['--port', '0', '--fixtures', dir, '--log-level', 'silent']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('broken.json');
    expect(result.stderr).toMatch(/status/);
  });

  it('prints the version for --version and -v, exit 0', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const result = run([flag]);
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });

  it.each([
    [
      ['--fixtures', '/no/such/fixtures'],
      /--fixtures \/ EMULATOR_FIXTURES: the folder "\/no\/such\/fixtures" does not exist/,
    ],
    [
      ['--scenarios', 'no-such-scenarios'],
      /--scenarios \/ EMULATOR_SCENARIOS_DIR: the folder "no-such-scenarios" does not exist/,
    ],
  ])('exits 2 when a named folder does not exist: %j', (args, pattern) => {
    const result = run(['--port', '0', ...args]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/cannot start/);
    expect(result.stderr).toMatch(pattern);
  });

  it('exits 2 when EMULATOR_FIXTURES names a folder that does not exist', () => {
    const result = spawnSync(process.execPath, [CLI, '--port', '0'], {
      encoding: 'utf8',
      env: { ...cleanEnv(), EMULATOR_FIXTURES: '/no/such/dir' },
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('"/no/such/dir" does not exist');
  });

  it('startup output: bound address, fixtures + template count, scenarios, data file, auth, admin token', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'emu-cli-data-')), 'state.json');
    const emu = await start(
      ['--host', '0.0.0.0', '--fixtures', FIXTURES, '--scenario', 'throttled', '--data-file', dataFile],
      { env: { ...cleanEnv(), EMULATOR_APPS: 'shop:s3cret:eu,blog:b-key', EMULATOR_ADMIN_TOKEN: 'tok' } },
    );
    try {
      expect(emu.stdout).toMatch(
        new RegExp(
          '^notification-emulator listening on http://0\\.0\\.0\\.0:\\d+ ' +
            '\\(every interface; from this machine: http://127\\.0\\.0\\.1:\\d+\\)\\n$',
        ),
      );
      const err = emu.stderr();
      expect(err).toMatch(new RegExp(`info: fixtures: ${FIXTURES} \\(\\d+ templates\\)\n`));
      expect(err).toMatch(/info: scenarios: .*scenarios \(\d+ loaded\); active: throttled\n/);
      expect(err).toContain(`info: data: file ${dataFile}\n`);
      expect(err).toContain('info: auth: strict, 2 apps (shop/eu, blog) from EMULATOR_APPS\n');
      expect(err).toContain('info: admin token: required on /__…');
      expect(err).toContain('body limits: JSON 50 MB, CSV upload 100 MB');
      const health = await fetch(`${emu.url}/__health`, { headers: { authorization: 'Bearer tok' } });
      expect(health.status).toBe(200);
    } finally {
      expect(await emu.stop()).toBe(0);
    }
  });

  it('startup output in the default case: open auth, in memory, no admin token', async () => {
    const emu = await start(['--fixtures', FIXTURES]);
    try {
      expect(emu.stdout).toMatch(/^notification-emulator listening on http:\/\/127\.0\.0\.1:\d+\n$/);
      expect(emu.stderr()).toContain('info: auth: open (any non-empty appid + apikey pair');
      expect(emu.stderr()).toContain('info: data: in memory');
      expect(emu.stderr()).toContain('info: admin token: not required');
      expect(emu.stderr()).toMatch(/active: none/);
    } finally {
      await emu.stop();
    }
  });

  it('proxy mode from EMULATOR_UPSTREAM: says so at start, and forwards an API call to that service', async () => {
    const live = await start(['--fixtures', FIXTURES]);
    const proxy = await start(['--fixtures', FIXTURES], { env: { ...cleanEnv(), EMULATOR_UPSTREAM: live.url } });
    try {
      expect(proxy.stderr()).toContain(
        `info: proxy mode: every API call is forwarded to ${live.url} (timeout 30000 ms)`,
      );
      expect(proxy.stderr()).not.toContain('info: auth:');
      const res = await fetch(`${proxy.url}/api/templates/order-confirmation`, {
        headers: { appid: 'cli-app', apikey: 'k' },
      });
      expect(res.status).toBe(200);
      const { items } = (await (await fetch(`${live.url}/__inspect/requests`)).json()) as {
        items: { appId: string }[];
      };
      expect(items.map((e) => e.appId)).toEqual(['cli-app']);
    } finally {
      await proxy.stop();
      await live.stop();
    }
  });

  it('uses the bundled examples, and says so, without ./fixtures, ./scenarios or named folders', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'emu-cli-cwd-'));
    const emu = await start([], { cwd: empty });
    try {
      expect(emu.stderr()).toMatch(
        /fixtures: .*fixtures \(\d+ templates\), the bundled examples: no \.\/fixtures here/,
      );
      expect(emu.stderr()).toMatch(
        /scenarios: .*scenarios \(\d+ loaded\), the bundled examples: no \.\/scenarios here/,
      );
      const health = (await (await fetch(`${emu.url}/__health`)).json()) as { templates: number };
      expect(health.templates).toBeGreaterThanOrEqual(5);
    } finally {
      await emu.stop();
    }
  });

  /** Runs `script` (an ES module with `createApp` imported from the built package) in `cwd`; its stdout. */
  const library = (script: string, cwd: string) => {
    const index = pathToFileURL(join(process.cwd(), 'dist', 'index.js')).href;
    const result = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `import { createApp } from ${JSON.stringify(index)};\n${script}`],
      { encoding: 'utf8', env: cleanEnv(), timeout: 20_000, cwd },
    );
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };
  const LOGGER = `const lines = [];
    const logger = { error: (m) => lines.push('error: ' + m), warn: (m) => lines.push('warn: ' + m),
      info: (m) => lines.push('info: ' + m), debug: () => {} };`;

  it('createApp() falls back to the bundled examples like the CLI, in a log line', () => {
    const empty = mkdtempSync(join(tmpdir(), 'emu-lib-cwd-'));
    const out = library(
      `${LOGGER}
      const app = createApp({ watch: false, logger });
      const res = await app.request('/api/notifications/send', {
        method: 'POST',
        headers: { appid: 'a', apikey: 'k', 'content-type': 'application/json' },
        body: JSON.stringify({
          template: { key: 'password-reset', variables: { resetLink: { type: 'web', data: 'x' } } },
          targets: ['u1'],
          mode: 'realtime',
        }),
      });
      console.log(JSON.stringify({ status: res.status, templates: app.emulator.templates.count(), lines }));
      await app.close();`,
      empty,
    );
    const { status, templates, lines } = JSON.parse(out) as { status: number; templates: number; lines: string[] };
    expect(templates).toBeGreaterThanOrEqual(5);
    expect(status).not.toBe(404);
    expect(lines).toContainEqual(
      expect.stringMatching(/^info: fixtures: the bundled examples \(.*fixtures\): \.\/fixtures holds none/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^info: scenarios: the bundled examples/));
    expect(lines.filter((l) => l.startsWith('warn:'))).toEqual([]);
  });

  it('createApp() warns about named fixtures and scenarios folders that hold nothing loadable', () => {
    const empty = mkdtempSync(join(tmpdir(), 'emu-lib-named-'));
    const out = library(
      `${LOGGER}
      const app = createApp({ watch: false, logger, fixturesDir: ${JSON.stringify(empty)},
        scenariosDir: ${JSON.stringify(empty)} });
      console.log(JSON.stringify(lines));
      await app.close();`,
      process.cwd(),
    );
    const lines = JSON.parse(out) as string[];
    expect(lines).toContain(
      `warn: no templates found in ${join(empty, 'templates')}: every send will answer 404 until one is added`,
    );
    expect(lines).toContain(`warn: no scenarios found in ${empty}: it holds no scenario *.json files`);
    expect(lines.some((l) => l.includes('bundled'))).toBe(false);
  });

  it('--log-level debug logs one line per request; info does not', async () => {
    const body = JSON.stringify({ template: { key: 'nope' }, targets: ['u1'], mode: 'realtime' });
    const headers = { 'content-type': 'application/json', appid: 'dbg', apikey: 'k' };
    const debug = await start(['--fixtures', FIXTURES, '--log-level', 'debug']);
    const info = await start(['--fixtures', FIXTURES, '--log-level', 'info']);
    try {
      for (const emu of [debug, info])
        expect((await fetch(`${emu.url}/api/notifications/send`, { method: 'POST', headers, body })).status).toBe(404);
      await new Promise((r) => setTimeout(r, 100));
      expect(debug.stderr()).toMatch(
        /debug: POST \/api\/notifications\/send app=dbg → 404 ERR_NOT_FOUND \(\d+(\.\d+)? ms\)\n/,
      );
      expect(info.stderr()).not.toContain('/api/notifications/send');
    } finally {
      await debug.stop();
      await info.stop();
    }
  });

  it('--body-limit sets the JSON body limit (413 past it), EMULATOR_BODY_LIMIT too', async () => {
    const emu = await start(['--fixtures', FIXTURES, '--body-limit', '1kb', '--log-level', 'silent']);
    const viaEnv = await start(['--fixtures', FIXTURES, '--log-level', 'silent'], {
      env: { ...cleanEnv(), EMULATOR_BODY_LIMIT: '1024' },
    });
    try {
      for (const { url } of [emu, viaEnv]) {
        const post = (bytes: number) =>
          fetch(`${url}/api/notifications/send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', appid: 'a', apikey: 'k' },
            body: JSON.stringify({ template: { key: 'x' }, targets: ['u'], mode: 'realtime', pad: '' }).replace(
              '""',
              JSON.stringify('x'.repeat(bytes - 67)),
            ),
          });
        const atLimit = await post(1024);
        expect(atLimit.status).not.toBe(413);
        const over = await post(1025);
        expect(over.status).toBe(413);
        expect(((await over.json()) as { error: { code: string } }).error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
      }
    } finally {
      await emu.stop();
      await viaEnv.stop();
    }
  });

  it('outlives the shell that put it in the background when npm did not start it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-cli-bg-'));
    const out = join(dir, 'out.txt');
    const pidFile = join(dir, 'pid');
    // As under `npx vitest`: npm_command=exec is inherited, but the parent is a shell that exits at once.
    spawnSync(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${CLI}" --port 0 --no-watch --fixtures "${FIXTURES}" > "${out}" 2>&1 & ` +
          `echo $! > "${pidFile}"`,
      ],
      { env: { ...cleanEnv(), npm_command: 'exec' } },
    );
    const pid = Number(readFileSync(pidFile, 'utf8'));
    try {
      let url: string | undefined;
      await vi.waitFor(
        () => {
          url = /listening on (http:\/\/\S+)/.exec(readFileSync(out, 'utf8'))?.[1];
          expect(url).toBeDefined();
        },
        { timeout: 10_000, interval: 100 },
      );
      await new Promise((r) => setTimeout(r, 1500)); // three parent checks' worth
      expect((await fetch(`${url}/__health`)).status).toBe(200);
    } finally {
      process.kill(pid, 'SIGTERM');
    }
  });
});
