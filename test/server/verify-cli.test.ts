/**
 * `notification-emulator verify` as a user runs it (node dist/cli.js, the key in the
 * environment or a file) against a stand-in live account: the table on stdout, the JUnit
 * file written, exit 0 unchanged and 1 changed.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cleanEnv } from '../helpers/cli.js';
import { LIVE_KEY, tempDir } from '../helpers/live-account.js';
import { startLiveStandIn, VENDOR_CHANGES, type LiveStandIn } from '../helpers/live-stand-in.js';
import { seedAccount } from '../helpers/verify.js';

const root = tempDir('verify-cli-');
let stand: LiveStandIn;

beforeAll(async () => {
  stand = await startLiveStandIn('cli', seedAccount);
});
afterAll(async () => {
  await stand?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Runs the CLI without blocking the event loop (the stand-in answers from this process). */
function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...cleanEnv(), ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('verify from the command line', () => {
  it('agrees with the unchanged account (key file), names the changes of a changed one (key variable)', async () => {
    const keyFile = join(root, 'live.key');
    writeFileSync(keyFile, `${LIVE_KEY}\n`);
    const junit = join(root, 'verify.xml');
    const common = ['verify', '--app-id', 'cli', '--base-url', stand.baseUrl];
    const clean = await cli([...common, '--api-key-file', keyFile, '--junit', junit]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/^probe +live +emulator +verdict$/m);
    expect(clean.stdout).toContain('17 agree, 0 differ');
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuite [^>]*tests="17" failures="0"/);

    stand.changes = [VENDOR_CHANGES.newTemplateField];
    try {
      const changed = await cli(common, { EMULATOR_PULL_API_KEY: LIVE_KEY });
      expect(changed.code, changed.stderr).toBe(1);
      expect(changed.stdout).toContain('    - templates[].x_new: only live');
      expect([changed.stdout, changed.stderr, clean.stdout, clean.stderr].join('')).not.toContain(LIVE_KEY);
    } finally {
      stand.changes = [];
    }
  });

  it('prints its help with exit 0, and is named in the main help', async () => {
    const help = await cli(['verify', '--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: notification-emulator verify')]);
    const main = await cli(['--help']);
    expect(main.stdout).toContain('notification-emulator verify --app-id A');
  });
});
