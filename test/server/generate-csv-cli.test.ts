/**
 * `notification-emulator generate-csv` as a user runs it (node dist/cli.js): same seed, same
 * file; the file passes the upload parser; bad flags exit 2 with a message.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecipientsCsv } from '../../src/domain/csv.js';
import { loadTemplates } from '../../src/catalog/load-fixtures.js';

const CLI = join(process.cwd(), 'dist', 'cli.js');
const run = (args: string[]) =>
  spawnSync(process.execPath, [CLI, 'generate-csv', ...args], { encoding: 'utf8', timeout: 30_000 });

const fixtures = mkdtempSync(join(tmpdir(), 'generate-csv-cli-'));
mkdirSync(join(fixtures, 'templates'));
writeFileSync(
  join(fixtures, 'templates', 'order.json'),
  JSON.stringify({
    key: 'order-confirmation',
    variableSchema: [
      { key: 'customerName', type: 'string', name: 'Customer name' },
      { key: 'orderId', type: 'string', name: 'Order number' },
      { key: 'banner', type: 'image', name: 'Banner', required: false },
      { key: 'cta', type: 'action', name: 'Track order' },
    ],
    content: { in_app: { title: 'Thanks, {{customerName}}' } },
  }),
);
afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

describe('generate-csv command', () => {
  const args = ['--template', 'order-confirmation', '--rows', '50', '--seed', '7', '--fixtures', fixtures];

  it('writes the same CSV twice for the same seed, and the parser reads 50 rows without errors', () => {
    const first = run(args);
    const second = run(args);
    expect(first.status, first.stderr).toBe(0);
    expect(second.status, second.stderr).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    expect(first.stderr).toMatch(/wrote 50 rows .*seed 7/);

    const template = loadTemplates(fixtures, '2030-01-01T00:00:00.000Z')[0];
    if (!template) throw new Error('fixture template not loaded');
    const parsed = parseRecipientsCsv(new TextEncoder().encode(first.stdout), template);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toHaveLength(50);
  });

  it('writes the file named by --out', () => {
    const out = join(fixtures, 'recipients.csv');
    const res = run([...args, '--out', out]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(run(args).stdout);
  });

  it('exits 2 with a message on stderr for a bad flag', () => {
    const res = run([...args, '--no-such-flag']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/Unknown option '--no-such-flag'/);
    expect(res.stdout).toBe('');
  });

  it('exits 2 listing the available templates for an unknown key', () => {
    const res = run(['--template', 'nope', '--rows', '5', '--fixtures', fixtures]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/unknown template "nope".*available: order-confirmation/);
  });
});
