/**
 * `notification-emulator verify` end to end over HTTP, in-process: against a stand-in live
 * account (a second emulator behind a recording proxy) it passes unchanged, names each vendor
 * change, exits 2 when the live service cannot be asked, writes JSON and JUnit reports, and
 * leaves the account as it found it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ENV } from '../../src/tools/live-commands.js';
import { LIVE_KEY, printed, tempDir } from '../helpers/live-account.js';
import { startLiveStandIn, VENDOR_CHANGES, type LiveStandIn } from '../helpers/live-stand-in.js';
import { seedAccount, verify } from '../helpers/verify.js';

const root = tempDir('verify-');
const firstPrinted = printed.length;
let stand: LiveStandIn;
let args: string[];

beforeAll(async () => {
  stand = await startLiveStandIn('shop', seedAccount);
  args = ['--app-id', 'shop', '--base-url', stand.baseUrl];
});
afterAll(async () => {
  await stand?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The changed answers the report must name, one line each. */
const NAMED_CHANGES = [
  '    - templates[].x_new: only live',
  '    - template.createdAt: number live, string emulator',
  '    - error.code: ERR_TEMPLATE_NOT_FOUND live, ERR_NOT_FOUND emulator',
  '    - status 422 live, 400 emulator',
];

describe('verify against a stand-in live account', () => {
  it('passes on the unchanged account, every write it sent refused, the account untouched', async () => {
    const before = (await stand.state()) as { templates: unknown[]; deliveries: { total: number } };
    expect([before.templates.length, before.deliveries.total]).toEqual([3, 0]);
    stand.forwarded.length = 0;
    const run = await verify(args);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('against an emulator holding its 3 template(s) and 2 channel(s)');
    expect(run.stdout).toMatch(
      /^verify: 17 probes: 17 agree, 0 differ; the emulator answers as the live service does$/m,
    );
    expect(run.stdout).toMatch(
      /^send, 10,001 targets +400 ERR_TARGET_LIMIT_EXCEEDED +400 ERR_TARGET_LIMIT_EXCEEDED +agree$/m,
    );
    const writes = stand.forwarded.filter((f) => f.method !== 'GET');
    expect(writes.length).toBeGreaterThanOrEqual(5);
    for (const write of writes) expect(write.status, `${write.method} ${write.path}`).toBeGreaterThanOrEqual(400);
    expect(await stand.state()).toEqual(before);
  });

  it('names each vendor change and exits 1, the account still untouched', async () => {
    const before = await stand.state();
    stand.changes = Object.values(VENDOR_CHANGES);
    try {
      const run = await verify(args);
      expect(run.code, run.stderr).toBe(1);
      const lines = run.stdout.split('\n');
      for (const change of NAMED_CHANGES) expect(lines, change).toContain(change);
      expect(run.stdout).toMatch(/^templates list +200 +200 +differs$/m);
      expect(run.stdout).toMatch(/^send, unknown template +404 ERR_TEMPLATE_NOT_FOUND +404 ERR_NOT_FOUND +differs$/m);
      expect(run.stdout).toContain('verify: 17 probes: 12 agree, 5 differ; the emulator answers differently');
    } finally {
      stand.changes = [];
    }
    expect(await stand.state()).toEqual(before);
  });

  it('writes the report as JSON and as JUnit (one test case per probe, a failure per difference)', async () => {
    const junit = join(root, 'verify.xml');
    stand.changes = [VENDOR_CHANGES.otherLimitStatus, VENDOR_CHANGES.wrongType];
    try {
      const run = await verify([...args, '--json', '--junit', junit]);
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as {
        ok: boolean;
        counts: Record<string, number>;
        probes: { probe: string; verdict: string; differences: string[]; live: unknown }[];
      };
      expect(report).toMatchObject({ ok: false, appId: 'shop', counts: { agree: 14, differs: 3, skipped: 0 } });
      const limit = report.probes.find((p) => p.probe === 'send, 10,001 targets')!;
      expect(limit).toMatchObject({
        verdict: 'differs',
        live: { status: 422, code: 'ERR_TARGET_LIMIT_EXCEEDED' },
        differences: ['status 422 live, 400 emulator'],
      });
      const xml = readFileSync(junit, 'utf8');
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
      expect(/<testsuite [^>]*tests="17" failures="3" skipped="0"/.test(xml)).toBe(true);
      const cases = [...xml.matchAll(/<testcase classname="verify" name="([^"]*)"(\/>|>([\s\S]*?)<\/testcase>)/g)];
      expect(cases.map((c) => c[1])).toEqual(
        report.probes.map((p) => expect.stringContaining(p.probe.replace(/&/g, '&amp;'))),
      );
      const failures = [...xml.matchAll(/<failure type="difference" message="([^"]*)">/g)].map((m) => m[1]);
      expect(failures).toEqual(report.probes.flatMap((p) => p.differences));
    } finally {
      stand.changes = [];
    }
  });

  it('skips the probes that need a template on an account without one, and still agrees', async () => {
    const empty = await startLiveStandIn('empty', async () => {});
    try {
      const run = await verify(['--app-id', 'empty', '--base-url', empty.baseUrl]);
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain('verify: 17 probes: 14 agree, 0 differ, 3 skipped');
      expect(run.stdout).toMatch(/^template by id +- +- +skipped\n {4}\(not sent: the account has no template\)$/m);
    } finally {
      await empty.close();
    }
  });
});

describe('verify when the live service cannot be asked: exit 2 and one line saying which', () => {
  it('unreachable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const run = await verify(['--app-id', 'shop', '--base-url', `http://127.0.0.1:${port}`, '--timeout-ms', '2000']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^notification-emulator verify: the live service is unreachable: GET .* ECONNREFUSED/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('the key refused on the reads', async () => {
    const run = await verify(args, { [API_KEY_ENV]: 'sk_live_not-this-account' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^notification-emulator verify: the live service refused the API key: GET .* answered 401/,
    );
  });

  it('the account not found', async () => {
    const run = await verify(['--app-id', 'shop', '--base-url', `${stand.baseUrl}/no-such-account`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^notification-emulator verify: the live service does not know this account: GET .* 404/,
    );
  });
});

describe('verify usage', () => {
  it('prints its help with exit 0, and refuses a key given as a flag with exit 2', async () => {
    const help = await verify(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: notification-emulator verify --app-id A \(--region R \| --base-url URL\)/);
    expect(help.stdout).toContain('--junit FILE');
    const flag = await verify(['--app-id', 'shop', '--region', 'eu', `--api-key=${LIVE_KEY}`]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--api-key is not accepted');
  });

  it('never prints the key', () => {
    const mine = printed.slice(firstPrinted);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.filter((text) => text.includes(LIVE_KEY))).toEqual([]);
  });
});
