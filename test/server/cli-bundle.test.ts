/**
 * The CLI bundle carries its dependencies (the Docker image ships dist/ without
 * node_modules): copied alone into an empty folder, it still serves, persists a data file
 * (the lowdb chunk) and generates CSV (the faker chunk).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-bundle-'));
  // fixtures/templates only: a user's fixtures/apps.json (strict auth) must not reach the test.
  for (const entry of ['dist', 'package.json', 'fixtures/templates'])
    cpSync(entry, join(dir, entry), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('EMULATOR_') && name !== 'PORT' && name !== 'HOST'),
  );

describe('the CLI bundle without node_modules', () => {
  it('has no node_modules to fall back on', () => {
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
  });

  it('serves a batch send, answers inspect and writes its data file', async () => {
    const dataFile = join(dir, 'state.json');
    const child = spawn(
      process.execPath,
      ['dist/cli.js', '--port', '0', '--data-file', dataFile, '--log-level', 'silent', '--no-watch'],
      { cwd: dir, env: cleanEnv() },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/[^\s]+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    const send = await fetch(`${url}/api/notifications/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', appid: 'bundle', apikey: 'k' },
      body: JSON.stringify({
        template: { key: 'welcome-message', variables: { name: 'Ada' } },
        targets: ['u1', 'u2', 'u3'],
        mode: 'batch',
      }),
    });
    expect(send.status).toBe(200);
    const found = (await (await fetch(`${url}/__inspect/deliveries?userId=u2`)).json()) as {
      total: number;
      items: { rendered: unknown }[];
    };
    expect(found.total).toBe(1);
    expect(JSON.stringify(found.items[0]!.rendered)).toContain('Ada');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { deliveries: { userId: string }[] };
    expect(saved.deliveries.map((d) => d.userId)).toEqual(['u1', 'u2', 'u3']);
  });

  it('runs generate-csv', () => {
    const result = spawnSync(
      process.execPath,
      ['dist/cli.js', 'generate-csv', '--template', 'welcome-message', '--rows', '2', '--seed', '1'],
      { cwd: dir, encoding: 'utf8', env: cleanEnv() },
    );
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('user_id,name');
  });
});
