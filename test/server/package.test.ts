/**
 * The package as users get it: npm pack, install the tarball in an empty folder, run the
 * bin (--help, then start / health / SIGTERM) and import the entry. A file missing from
 * `files`, `bin` or `exports` fails here.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'emu-pack-'));
const project = join(dir, 'project');
const installed = join(project, 'node_modules', 'notification-emulator');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

beforeAll(async () => {
  // dist/ is built by the global setup; --ignore-scripts skips a second build by `prepare`.
  await run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  expect(tarball).toBeDefined();
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'adopter', version: '1.0.0', private: true, type: 'module' }),
  );
  await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball!)], {
    cwd: project,
    timeout: 120_000,
  });
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed package', () => {
  it('ships dist, fixtures and the README, and no sources or tests', () => {
    const files = readdirSync(installed);
    expect(files).toEqual(expect.arrayContaining(['dist', 'fixtures', 'package.json', 'README.md']));
    expect(files).not.toContain('src');
    expect(files).not.toContain('test');
    expect(readdirSync(join(installed, 'fixtures', 'templates')).length).toBeGreaterThan(0);
    expect(statSync(join(installed, 'dist', 'index.d.ts')).isFile()).toBe(true);
  });

  it('npx notification-emulator --help prints the usage', async () => {
    const { stdout } = await run(npx, ['--no-install', 'notification-emulator', '--help'], { cwd: project });
    expect(stdout).toMatch(/^notification-emulator: /);
    expect(stdout).toContain('--data-file FILE');
  });

  it('starts from the installed bin, answers /__health and stops on SIGTERM with exit code 0', async () => {
    const bin = join(project, 'node_modules', '.bin', 'notification-emulator');
    const child = spawn(
      bin,
      [
        '--port',
        '0',
        '--fixtures',
        join(installed, 'fixtures'),
        '--scenarios',
        join(installed, 'scenarios'),
        '--log-level',
        'silent',
        '--no-watch',
      ],
      {
        cwd: project,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      let url: string | undefined;
      for await (const line of createInterface({ input: child.stdout })) {
        url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
        if (url) break;
      }
      expect(url, stderr).toBeDefined();
      const health = (await (await fetch(`${url}/__health`)).json()) as { status: string; templates: number };
      expect(health).toMatchObject({ status: 'ok', templates: expect.any(Number) });
      expect(health.templates).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('exposes startEmulator and createClient from the package entry', async () => {
    const script = [
      "import { startEmulator, createClient, createApp } from 'notification-emulator';",
      "const emu = await startEmulator({ port: 0, templates: [], watch: false, logLevel: 'silent' });",
      'const health = await createClient({ url: emu.url }).health();',
      'await emu.close();',
      'console.log(typeof createApp, health.status, typeof emu.inspect.deliveries);',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(stdout.trim()).toBe('function ok function');
  });
});
