/**
 * Traces from the command line (docs/reference.md#traces): --export-on-exit writes the trace
 * on SIGTERM (one log line, no temp file left), --import starts from it, `view` prints the
 * inspector's address; a bad trace stops the start with exit 2 and the problem named.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cleanEnv, startCli } from '../helpers/cli.js';
import { bundledTemplatesCopy } from '../helpers/fixtures.js';

const FIXTURES = bundledTemplatesCopy('emu-trace-cli-');
const start = (args: string[], env: Record<string, string> = {}) =>
  startCli([...args, '--fixtures', FIXTURES], { env: { ...cleanEnv(), ...env } });

const send = (url: string) =>
  fetch(`${url}/api/notifications/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', appid: 'app-1', apikey: 'k' },
    body: JSON.stringify({
      template: { key: 'welcome-message', variables: { name: 'Ann' } },
      targets: ['u1', 'u2'],
      mode: 'batch',
    }),
  });

describe('traces on the command line', () => {
  it('--export-on-exit writes the trace on SIGTERM; --import and view start from it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-trace-'));
    const file = join(dir, 'out', 'trace.json');
    const first = await start(['--port', '0'], { EMULATOR_EXPORT_ON_EXIT: file });
    await send(first.url);
    const deliveries = await (await fetch(`${first.url}/__inspect/deliveries`)).json();
    expect(await first.stop()).toBe(0);
    expect(first.stderr()).toMatch(new RegExp(`wrote the trace to ${file.replace(/[/.]/g, '\\$&')} \\(`));
    expect(readdirSync(join(dir, 'out'))).toEqual(['trace.json']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'notification-emulator-trace' });

    const second = await start(['--port', '0', '--import', file]);
    expect(await (await fetch(`${second.url}/__inspect/deliveries`)).json()).toEqual(deliveries);
    expect(await (await fetch(`${second.url}/__health`)).json()).toMatchObject({ trace: { fileName: 'trace.json' } });
    await second.stop();

    const viewer = await start(['view', file]);
    expect(viewer.stdout).toMatch(/trace .*trace\.json opened; web inspector: http:\/\/127\.0\.0\.1:\d+\/__\/\n/);
    expect(await (await fetch(`${viewer.url}/__inspect/deliveries`)).json()).toEqual(deliveries);
    await viewer.stop();
  });

  it('refuses a bad trace at start: exit 2, the problem named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-trace-bad-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"format":"notification-emulator-trace","version":9}');
    const result = spawnSync(process.execPath, [CLI, '--port', '0', '--import', file, '--fixtures', FIXTURES], {
      encoding: 'utf8',
      env: cleanEnv(),
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /--import .*bad\.json: version: this emulator reads trace version 1, the file is version 9/,
    );
    const missing = spawnSync(process.execPath, [CLI, 'view'], { encoding: 'utf8', env: cleanEnv(), timeout: 20_000 });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/view: name the trace file/);
  });
});
