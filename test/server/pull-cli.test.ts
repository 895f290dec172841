/**
 * `notification-emulator pull` and `check-fixtures` as a user runs them (node dist/cli.js, the
 * key in the environment or a file), against a second emulator playing the live account.
 */
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, TemplateView } from '../helpers/api-types.js';
import {
  allFileTexts,
  folderSnapshot,
  LIVE_KEY,
  startLiveAccount,
  tempDir,
  type LiveAccount,
} from '../helpers/live-account.js';

const CLI = join(process.cwd(), 'dist', 'cli.js');
const root = tempDir('pull-cli-');
const outputs: string[] = [];
let live: LiveAccount;

beforeAll(async () => {
  live = await startLiveAccount(['cli']);
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await live?.close();
});

/** Runs the CLI without blocking the event loop (the live account answers from this process). */
function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('EMULATOR_')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...cleanEnv, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        outputs.push(stdout, stderr);
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('pull and check-fixtures from the command line', () => {
  it('pulls, re-pulls without change, checks clean, then fails the check on drift', async () => {
    const api = live.api('cli');
    const inbox = await api.ok<Channel>('POST', '/api/channels', { name: 'Inbox', type: 'in_app', templateType: 'ui' });
    const t = await api.ok<TemplateView>('POST', '/api/templates', {
      name: 'Order Shipped',
      channelIds: [inbox.id],
      variableSchema: { orderId: { type: 'string' } },
      content: { in_app: { title: 'Order {{orderId}} shipped' } },
    });
    await api.ok('PUT', `/api/templates/${t.id}`, { status: 'approved' });
    const out = join(root, 'fixtures');
    const env = { EMULATOR_PULL_API_KEY: LIVE_KEY };
    const common = ['--app-id', 'cli', '--base-url', `${live.url}/v3/business-messaging`];

    const first = await cli(['pull', ...common, '--out', out], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('+ templates/order-shipped.json');
    const before = folderSnapshot(out);
    const second = await cli(['pull', ...common, '--out', out], env);
    expect([second.code, second.stdout]).toEqual([0, expect.stringContaining('nothing changed')]);
    expect(folderSnapshot(out)).toEqual(before);

    const keyFile = join(root, 'live.key');
    writeFileSync(keyFile, `${LIVE_KEY}\n`);
    const clean = await cli(['check-fixtures', ...common, '--fixtures', out, '--api-key-file', keyFile]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain('matches the live account (1 template(s))');

    await api.ok('PUT', `/api/templates/${t.id}`, { status: 'archived' });
    const drift = await cli(['check-fixtures', ...common, '--fixtures', out, '--json'], env);
    expect(drift.code).toBe(1);
    expect(JSON.parse(drift.stdout)).toMatchObject({
      ok: false,
      breaking: 1,
      differences: [{ kind: 'template-status', template: 'order-shipped', fixtures: 'approved', live: 'archived' }],
    });
  });

  it('prints help, and refuses a key given as a flag with exit 2', async () => {
    const help = await cli(['pull', '--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: notification-emulator pull')]);
    const flag = await cli(['check-fixtures', '--app-id', 'cli', '--region', 'eu', '--api-key', LIVE_KEY]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--api-key is not accepted');
  });

  it('never prints the key nor writes it', () => {
    expect(outputs.length).toBeGreaterThan(0);
    expect([...outputs, ...allFileTexts([join(root, 'fixtures')])].filter((t) => t.includes(LIVE_KEY))).toEqual([]);
  });
});
