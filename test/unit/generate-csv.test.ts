/**
 * The fake recipients CSV generator and the generate-csv command (in process): seeded and
 * reproducible, always accepted by the parser, flags checked with exit code 2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { loadTemplates } from '../../src/catalog/load-fixtures.js';
import { MAX_CSV_ROWS } from '../../src/domain/csv.js';
import { csvCell, generateRecipientsCsv } from '../../src/platform/fake-data.js';
import { runGenerateCsv } from '../../src/tools/generate-csv.js';
import { bytes, makeTemplate, parse } from '../helpers/csv.js';

const PROMO = makeTemplate(
  [
    { key: 'first_name', type: 'string', name: 'First name', required: true },
    { key: 'customerName', type: 'string', name: 'Customer', required: true },
    { key: 'discount_code', type: 'string', name: 'Code', required: true },
    { key: 'orderId', type: 'string', name: 'Order', required: true },
    { key: 'tagline', type: 'string', name: 'Tagline', required: false },
    { key: 'hero', type: 'image', name: 'Hero', required: false },
    { key: 'shop', type: 'action', name: 'Shop', required: true },
  ],
  'promo',
);

const dir = mkdtempSync(join(tmpdir(), 'generate-csv-'));
mkdirSync(join(dir, 'templates'));
writeFileSync(
  join(dir, 'templates', 'promo.json'),
  JSON.stringify({ key: 'promo', variableSchema: PROMO.variableSchema, content: {} }),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('generateRecipientsCsv', () => {
  it('gives the same bytes for the same seed and different data for another seed', () => {
    expect(generateRecipientsCsv(PROMO, 50, 7)).toBe(generateRecipientsCsv(PROMO, 50, 7));
    expect(generateRecipientsCsv(PROMO, 50, 8)).not.toBe(generateRecipientsCsv(PROMO, 50, 7));
  });

  it('writes user_id plus every variable column, unique padded user ids, and parses without errors', () => {
    const csv = generateRecipientsCsv(PROMO, 300, 3);
    expect(csv.split('\n')[0]).toBe('user_id,first_name,customerName,discount_code,orderId,tagline,hero,shop');
    const result = parse(csv, PROMO);
    expect(result.errors).toEqual([]);
    expect(result.rows).toHaveLength(300);
    expect(result.rows[0]?.userId).toBe('user-000001');
    expect(new Set(result.rows.map((r) => r.userId)).size).toBe(300);
  });

  it('fills name-like, code-like and id-like keys with fitting values, and image/action cells with valid JSON', () => {
    const rows = parse(generateRecipientsCsv(PROMO, 200, 5), PROMO).rows;
    const first = rows[0]?.variables ?? {};
    expect(first.first_name).toMatch(/^[A-Z][A-Za-z' -]+$/);
    expect(first.customerName).toMatch(/^\S+ \S+/);
    expect(first.discount_code).toMatch(/^[A-Z]+[A-Z0-9]{6}$/);
    expect(rows.map((r) => r.variables.orderId)).toEqual(
      rows.map((_, i) => `ORD-${Number(String(first.orderId).slice(4)) + i}`),
    );
    expect(rows.some((r) => r.variables.hero !== undefined)).toBe(true);
    expect(rows.some((r) => r.variables.hero === undefined)).toBe(true); // optional cells are sometimes left empty
    expect(rows.every((r) => typeof (r.variables.shop as { data?: unknown }).data === 'string')).toBe(true);
  });

  it('fills each family of key with its kind of value, every cell read back without a row error', () => {
    // key → what its values look like (the key's words pick the faker generator)
    const families: [string, RegExp][] = [
      ['lastName', /^[A-Z][A-Za-z' -]+$/],
      ['productName', /\S/],
      ['storeName', /\S/],
      ['city', /\S/],
      ['country', /\S/],
      ['email', /^[^@\s]+@[^@\s]+\.[a-z]+$/i],
      ['phone', /\d/],
      ['trackingUrl', /^https?:\/\//],
      ['deliveryDate', /^\d{4}-\d{2}-\d{2}$/],
      ['pickupTime', /^\d{1,2}:(00|15|30|45)$/],
      ['totalAmount', /^\$\d+\.\d{2}$/],
      ['discountPercent', /^\d+%$/],
      ['bookingRef', /^BOO-\d+$/],
      ['note', /^\w+( \w+){1,3}$/],
    ];
    const template = makeTemplate(
      families.map(([key]) => ({ key, type: 'string', name: key, required: true })),
      'families',
    );
    const result = parse(generateRecipientsCsv(template, 300, 11), template);
    expect(result.errors).toEqual([]);
    expect(result.rows).toHaveLength(300);
    for (const [key, looks] of families) {
      const values = result.rows.map((r) => r.variables[key]);
      expect(
        values.filter((v) => !looks.test(String(v))),
        key,
      ).toEqual([]);
      expect(new Set(values).size, `${key} varies`).toBeGreaterThan(1);
    }
  });

  it('writes a file every fixture template accepts', () => {
    for (const template of loadTemplates('fixtures', '2030-01-01T00:00:00.000Z')) {
      const result = parse(generateRecipientsCsv(template, 40, 1), template);
      expect(result.errors, template.key).toEqual([]);
      expect(result.rows, template.key).toHaveLength(40);
    }
  });

  it(`writes ${MAX_CSV_ROWS} rows the parser accepts in full`, () => {
    const result = parse(generateRecipientsCsv(PROMO, MAX_CSV_ROWS, 11), PROMO);
    expect(result.errors).toEqual([]);
    expect(result.rows).toHaveLength(MAX_CSV_ROWS);
  });

  it('quotes cells only when RFC 4180 needs it', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(Papa.parse<string[]>(`${csvCell(' padded ')},x`).data[0]).toEqual([' padded ', 'x']);
  });
});

/** stdout and stderr as strings; with `failWith`, every write to stdout fails with that error code. */
function fakeIo(failWith?: string) {
  let out = '';
  let err = '';
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (failWith !== undefined) return done(Object.assign(new Error(`write ${failWith}`), { code: failWith }));
      out += chunk.toString('utf8');
      done();
    },
  });
  return { io: { stdout, stderr: { write: (text: string) => (err += text) } }, out: () => out, err: () => err };
}

describe('runGenerateCsv', () => {
  const base = ['--template', 'promo', '--fixtures', dir];

  it('writes the CSV to stdout and a summary with the seed to stderr', async () => {
    const { io, out, err } = fakeIo();
    expect(await runGenerateCsv([...base, '--rows', '20', '--seed', '9'], io)).toBe(0);
    expect(out()).toBe(generateRecipientsCsv(PROMO, 20, 9));
    expect(err()).toMatch(/wrote 20 rows for template "promo" \(seed 9\)/);
  });

  it('writes to --out and reports progress every 10000 rows', async () => {
    const { io, err } = fakeIo();
    const file = join(dir, 'out.csv');
    expect(await runGenerateCsv([...base, '--rows=25000', '--seed=2', '--out', file], io)).toBe(0);
    expect(parse(bytes(readFileSync(file, 'utf8')), PROMO).rows).toHaveLength(25000);
    expect(err()).toContain('10000/25000 rows');
    expect(err()).toContain('25000/25000 rows');
  });

  it('exits 2 with a message for missing, unknown or bad flags', async () => {
    const cases: [string[], RegExp][] = [
      [['--fixtures', dir], /missing --template and --rows/],
      [[...base], /missing --rows/],
      [[...base, '--rows', 'many'], /--rows must be a whole number/],
      [[...base, '--rows', '-3'], /--rows|argument/],
      [[...base, '--rows', '5', '--seed', '1.5'], /--seed must be a whole number/],
      [[...base, '--rows', '1e3'], /--rows must be a whole number/],
      [[...base, '--rows', '99999999999999999999'], /--rows must be a whole number/],
      [[...base, '--rows', '5', '--colour', 'red'], /Unknown option '--colour'/],
    ];
    for (const [argv, message] of cases) {
      const { io, out, err } = fakeIo();
      expect(await runGenerateCsv(argv, io), argv.join(' ')).toBe(2);
      expect(err()).toMatch(message);
      expect(out()).toBe('');
    }
  });

  it('exits 2 listing the available keys for an unknown template', async () => {
    const { io, err } = fakeIo();
    expect(await runGenerateCsv(['--template', 'nope', '--rows', '1', '--fixtures', dir], io)).toBe(2);
    expect(err()).toMatch(/unknown template "nope".*available: promo/);
  });

  it('exits 1 when --out cannot be written', async () => {
    const { io, err } = fakeIo();
    expect(await runGenerateCsv([...base, '--rows', '3', '--out', join(dir, 'missing-dir', 'x.csv')], io)).toBe(1);
    expect(err()).toMatch(/cannot write .*x\.csv/);
  });

  it('exits 2 naming a --fixtures folder that does not exist', async () => {
    const { io, err } = fakeIo();
    const missing = join(dir, 'no-such-folder');
    expect(await runGenerateCsv(['--template', 'promo', '--rows', '1', '--fixtures', missing], io)).toBe(2);
    expect(err()).toContain(`--fixtures: the folder "${missing}" does not exist`);
  });

  it(`notes that more than ${MAX_CSV_ROWS} rows is more than an upload takes, and writes them`, async () => {
    const { io, err } = fakeIo();
    const file = join(dir, 'too-many.csv');
    expect(await runGenerateCsv([...base, '--rows', String(MAX_CSV_ROWS + 1), '--out', file], io)).toBe(0);
    expect(err()).toContain(`note: ${MAX_CSV_ROWS + 1} rows is more than the ${MAX_CSV_ROWS} an upload accepts`);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(MAX_CSV_ROWS + 2);
  });

  it('exits 0 quietly when the reader of stdout goes away (| head), and 1 for another write error', async () => {
    const closed = fakeIo('EPIPE');
    expect(await runGenerateCsv([...base, '--rows', '30000'], closed.io)).toBe(0);
    expect(closed.err()).not.toContain('cannot write');
    const full = fakeIo('ENOSPC');
    expect(await runGenerateCsv([...base, '--rows', '30000'], full.io)).toBe(1);
    expect(full.err()).toContain('cannot write stdout: write ENOSPC');
  });

  it('prints the usage for --help', async () => {
    const { io, out } = fakeIo();
    expect(await runGenerateCsv(['--help'], io)).toBe(0);
    expect(out()).toMatch(/^Usage: notification-emulator generate-csv/);
  });
});
