/**
 * `npm start` as a user runs it: the prestart step builds only when dist/ is stale (a fresh
 * `npm ci` has built it already), and `npm start &` then `kill $PID` or `kill -9 $PID` (the
 * npm process) stops the server and frees its port.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundledTemplatesCopy } from '../helpers/fixtures.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const cleanEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('EMULATOR_') && name !== 'PORT' && name !== 'HOST'),
  );

interface BuildStamp {
  sourceHash(root: string): string;
  isBuildCurrent(root: string): boolean;
  ensureBuilt(root: string): number;
  STAMP: string;
}
const stampModule = pathToFileURL(join(process.cwd(), 'scripts', 'build-stamp.mjs')).href;
const loadStamp = async () => (await import(stampModule)) as BuildStamp;

/** Resolves when `url` refuses connections (the server is gone), or rejects after `ms`. */
async function refused(url: string, ms: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await fetch(`${url}/__health`, { signal: AbortSignal.timeout(1000) });
    } catch {
      return Date.now() - started;
    }
    if (Date.now() - started > ms) throw new Error(`${url} still answers ${ms} ms after the kill`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `npm start` on a free port; resolves with the child (the npm process) once the server listens. */
async function npmStart() {
  const started = Date.now();
  const child = spawn(
    npm,
    [
      'start',
      '--silent',
      '--',
      '--port',
      '0',
      '--no-watch',
      '--fixtures',
      bundledTemplatesCopy(),
      '--log-level',
      'warn',
    ],
    { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited ${code}: ${stdout}${stderr}`)));
  });
  return { child, exited, url, startMs: Date.now() - started, stderr: () => stderr };
}

describe('npm start', () => {
  it('does not rebuild a current dist/, and kill <npm pid> stops the server', async () => {
    const cli = join(process.cwd(), 'dist', 'cli.js');
    const before = statSync(cli).mtimeMs;
    const { child, exited, url, startMs, stderr } = await npmStart();
    expect(stderr()).not.toContain('building dist/');
    expect(statSync(cli).mtimeMs).toBe(before);
    expect((await fetch(`${url}/__health`)).status).toBe(200);

    child.kill('SIGTERM'); // the npm process, as `kill $!` after `npm start &` does
    const stoppedMs = await refused(url, 5000);
    await exited;
    // Figures for the report: start through npm (no build) and stop after the kill.
    console.log(`npm start → listening in ${startMs} ms; server gone ${stoppedMs} ms after kill <npm pid>`);
  }, 60_000);

  it('stops within about a second when the npm process is killed with SIGKILL', async () => {
    const { child, exited, url } = await npmStart();
    expect((await fetch(`${url}/__health`)).status).toBe(200);
    child.kill('SIGKILL'); // npm cannot pass anything on: the server notices its parent is gone
    await exited;
    const stoppedMs = await refused(url, 1500);
    expect(stoppedMs).toBeLessThan(1500);
  }, 60_000);
});

describe('the build stamp (scripts/build-stamp.mjs)', () => {
  function project(): string {
    const root = mkdtempSync(join(tmpdir(), 'emu-stamp-'));
    mkdirSync(join(root, 'src', 'nested'), { recursive: true });
    mkdirSync(join(root, 'scripts'));
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'src', 'nested', 'b.ts'), 'export const b = 2;\n');
    writeFileSync(join(root, 'scripts', 'build.mjs'), '// build\n');
    writeFileSync(join(root, 'package.json'), '{}\n');
    return root;
  }

  it('is current only when dist/.build-hash matches the sources', async () => {
    const { sourceHash, isBuildCurrent, STAMP } = await loadStamp();
    const root = project();
    try {
      expect(isBuildCurrent(root)).toBe(false); // no stamp: never built
      writeFileSync(join(root, STAMP), `${sourceHash(root)}\n`);
      expect(isBuildCurrent(root)).toBe(true);
      const hash = sourceHash(root);
      for (const [file, text] of [
        ['src/nested/b.ts', 'export const b = 3;\n'],
        ['src/new.ts', 'export {};\n'],
        ['scripts/build.mjs', '// other build\n'],
        ['package.json', '{"dependencies":{}}\n'],
      ] as const) {
        writeFileSync(join(root, file), text);
        expect(isBuildCurrent(root), file).toBe(false);
        writeFileSync(join(root, STAMP), `${sourceHash(root)}\n`);
        expect(isBuildCurrent(root), file).toBe(true);
      }
      expect(sourceHash(root)).not.toBe(hash);
      rmSync(join(root, 'src', 'new.ts'));
      expect(isBuildCurrent(root)).toBe(false); // a deleted source counts too
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('does not depend on modification times (a copy of the tree has the same hash)', async () => {
    const { sourceHash } = await loadStamp();
    const root = project();
    const copy = mkdtempSync(join(tmpdir(), 'emu-stamp-copy-'));
    try {
      cpSync(root, copy, { recursive: true });
      expect(sourceHash(copy)).toBe(sourceHash(root));
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('matches the repository after the build (what `npm start` checks)', async () => {
    expect((await loadStamp()).isBuildCurrent(process.cwd())).toBe(true);
  });
});

describe('ensureBuilt: the build that `npm start`, `npm pack` and the command in a checkout trigger', () => {
  afterEach(() => vi.restoreAllMocks());

  /** A checkout whose build only records that it ran, then stamps as the real one does (last). */
  function checkout(build = 'BUILD'): string {
    const root = mkdtempSync(join(tmpdir(), 'emu-ensure-'));
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'scripts'));
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    const stampModule = JSON.stringify(join(process.cwd(), 'scripts', 'build-stamp.mjs'));
    const script = build.replace(
      'BUILD',
      `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
       import { sourceHash, STAMP } from ${stampModule};
       mkdirSync('dist', { recursive: true });
       appendFileSync('dist/runs', 'x');
       writeFileSync(STAMP, sourceHash(process.cwd()) + '\\n');`,
    );
    writeFileSync(join(root, 'scripts', 'build.mjs'), script);
    return root;
  }
  const runs = (root: string) =>
    existsSync(join(root, 'dist', 'runs')) ? readFileSync(join(root, 'dist', 'runs'), 'utf8').length : 0;

  /** ensureBuilt on `root`: its status and what it wrote to stderr. */
  async function ensure(root: string): Promise<{ status: number; said: string }> {
    let said = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      said += String(chunk);
      return true;
    });
    const status = (await loadStamp()).ensureBuilt(root);
    vi.restoreAllMocks();
    return { status, said };
  }

  it('says on one line why it builds, and builds only when dist/ is missing, unfinished or stale', async () => {
    const root = checkout();
    try {
      expect(await ensure(root)).toEqual({ status: 0, said: 'notification-emulator: building dist/ (first run)…\n' });
      expect(runs(root)).toBe(1);
      expect(await ensure(root)).toEqual({ status: 0, said: '' }); // current: nothing said, nothing built
      writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 2;\n');
      expect((await ensure(root)).said).toBe('notification-emulator: building dist/ (the sources changed)…\n');
      expect(runs(root)).toBe(2);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('redoes a build that was interrupted (killed before it wrote its stamp)', async () => {
    // Killed midway, as Ctrl-C during the first `npx notification-emulator` does.
    const root = checkout(`import { mkdirSync, writeFileSync } from 'node:fs';
      mkdirSync('dist', { recursive: true });
      writeFileSync('dist/cli.js', '// half');
      process.kill(process.pid, 'SIGKILL');`);
    try {
      expect((await ensure(root)).status).not.toBe(0);
      const finishing = checkout();
      cpSync(join(finishing, 'scripts', 'build.mjs'), join(root, 'scripts', 'build.mjs'));
      rmSync(finishing, { recursive: true, force: true });
      expect(await ensure(root)).toEqual({
        status: 0,
        said: 'notification-emulator: building dist/ (the last build did not finish)…\n',
      });
      expect(runs(root)).toBe(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('does nothing in an installed package (no src/)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'emu-installed-'));
    try {
      expect(await ensure(root)).toEqual({ status: 0, said: '' });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('the command in a checkout (bin/, which `npx` runs there) starts a current dist/ as is', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const ran = await run(process.execPath, ['bin/notification-emulator.js', '--version'], { env: cleanEnv() });
    expect([ran.stdout.trim(), ran.stderr]).toEqual([version, '']);
  });

  it("is the real build's protocol: the stamp is removed before anything is built and written last", () => {
    const build = readFileSync(join(process.cwd(), 'scripts', 'build.mjs'), 'utf8').trim();
    expect(build.indexOf('rmSync(`${root}/${STAMP}`')).toBeGreaterThan(0);
    expect(build.indexOf('rmSync(`${root}/${STAMP}`')).toBeLessThan(build.indexOf('spawnSync('));
    expect(build.split('\n').at(-1)).toBe('writeFileSync(`${root}/${STAMP}`, `${hash}\\n`);');
  });
});
