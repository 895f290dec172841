/**
 * The CLI as a user runs it (docs/reference.md#running-it): `node dist/cli.js`, the startup line with the
 * bound URL, a request, SIGTERM → exit 0; bad flags and fixtures → a message and exit 2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = join(process.cwd(), 'dist', 'cli.js');
const cleanEnv = () => {
  const env = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith('EMULATOR_') || name === 'PORT' || name === 'HOST') delete env[name];
  return env;
};
const run = (args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: cleanEnv(), timeout: 20_000 });

describe('notification-emulator CLI', () => {
  it('prints the bound URL, serves requests, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--fixtures', 'fixtures', '--log-level', 'silent'], {
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

  it('prints usage and exits 0 for --help', () => {
    const result = run(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Usage:/);
    expect(result.stdout).toMatch(/--port/);
  });

  it('exits 0 on SIGINT sent the moment the startup line appears', async () => {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--fixtures', 'fixtures', '--log-level', 'silent'], {
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
});
