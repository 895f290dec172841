/**
 * Recipients CSV, row level (docs/reference.md#upload-recipients-csv): a bad row is skipped and reported as
 * {row, reason}; the other rows are still read. Duplicates are left to the campaign service.
 */
import { describe, expect, it } from 'vitest';
import { BANNER_CELL, CTA_CELL, LOOSE, parse } from '../helpers/csv.js';

const HEADER = 'user_id,customerName,note,banner,cta';
const good = (id: string) => `${id},Jane,,,${CTA_CELL}`;

describe('recipients CSV: row problems', () => {
  it('skips a row with an empty user_id and reports it', () => {
    const result = parse(`${HEADER}\n${good('u1')}\n,Jane,,,${CTA_CELL}\n${good('u3')}\n`);
    expect(result.rows.map((r) => r.userId)).toEqual(['u1', 'u3']);
    expect(result.errors).toEqual([{ row: 3, reason: 'user_id is empty' }]);
    expect(result.dataRows).toBe(3);
  });

  it('names the userId column in the reason when the file uses the alias', () => {
    expect(parse('userId,a\n"  ",x\n', LOOSE).errors).toEqual([{ row: 2, reason: 'userId is empty' }]);
  });

  it('skips a row whose field count differs from the header', () => {
    const result = parse(`${HEADER}\n${good('u1')}\nu2,Bob\n${good('u3')},extra\n`);
    expect(result.rows.map((r) => r.row)).toEqual([2]);
    expect(result.errors).toEqual([
      { row: 3, reason: 'has 2 fields but the header row has 5' },
      { row: 4, reason: 'has 6 fields but the header row has 5' },
    ]);
  });

  it('skips a row with an empty cell for a required variable', () => {
    const result = parse(`${HEADER}\nu1,,,,${CTA_CELL}\n`);
    expect(result.rows).toEqual([]);
    expect(result.errors).toEqual([
      { row: 2, reason: 'column customerName: required variable "customerName" is empty' },
    ]);
  });

  it('omits an optional variable whose cell is empty', () => {
    expect(parse(`${HEADER}\n${good('u1')}\n`).rows[0]?.variables).toEqual({
      customerName: 'Jane',
      cta: { type: 'web', data: 'https://shop.example/t' },
    });
  });

  it('takes string cells as they are: spaces, JSON-looking text, quotes', () => {
    const result = parse(`${HEADER}\nu1,"  Jane  ","{""x"":1}",,${CTA_CELL}\n`);
    expect(result.rows[0]?.variables).toMatchObject({ customerName: '  Jane  ', note: '{"x":1}' });
  });

  it('skips a row whose image or action cell is not JSON', () => {
    const result = parse(`${HEADER}\nu1,Jane,,not json,${CTA_CELL}\nu2,Jane,,,{oops}\n`);
    expect(result.rows).toEqual([]);
    expect(result.errors).toHaveLength(2);
    expect(result.errors[0]).toEqual({ row: 2, reason: expect.stringMatching(/^column banner: not valid JSON/) });
    expect(result.errors[1]).toEqual({ row: 3, reason: expect.stringMatching(/^column cta: not valid JSON/) });
  });

  it('skips a row whose image or action JSON has the wrong shape', () => {
    const badImage = '"{""url"":""https://x"",""width"":""100"",""height"":1}"';
    const badAction = '"{""type"":""deeplink"",""data"":""x""}"';
    const result = parse(
      `${HEADER}\nu1,Jane,,${badImage},${CTA_CELL}\nu2,Jane,,,${badAction}\nu3,Jane,,,"[1,2]"\nu4,Jane,,,"""text"""\n`,
    );
    expect(result.rows).toEqual([]);
    expect(result.errors.map((e) => e.row)).toEqual([2, 3, 4, 5]);
    expect(result.errors[0]?.reason).toMatch(/^column banner: must be an image object.*"width"/);
    expect(result.errors[1]?.reason).toMatch(/^column cta: must be an action object.*"type" must be "web" or "custom"/);
    expect(result.errors[2]?.reason).toMatch(/^column cta: must be an action object/);
  });

  it('lists every problem of a row in one reason', () => {
    const result = parse(`${HEADER}\nu1,,,bad,\n`);
    expect(result.errors).toEqual([
      {
        row: 2,
        reason: expect.stringMatching(
          /column customerName: .*; column banner: not valid JSON.*; column cta: required variable "cta" is empty/,
        ),
      },
    ]);
  });

  it('reports the same bad JSON cell on every row that holds it', () => {
    const lines = [HEADER];
    for (let i = 0; i < 5; i++) lines.push(`u${i},Jane,,{bad,${CTA_CELL}`);
    expect(parse(lines.join('\n')).errors.map((e) => e.row)).toEqual([2, 3, 4, 5, 6]);
  });

  it('gives every row its own variables object, with the image value it holds', () => {
    const result = parse(`${HEADER}\nu1,Jane,,${BANNER_CELL},${CTA_CELL}\nu2,Bob,,${BANNER_CELL},${CTA_CELL}\n`);
    const [first, second] = result.rows;
    expect(first?.variables).not.toBe(second?.variables);
    expect(second?.variables.banner).toEqual({ url: 'https://cdn.example/b.png', width: 100, height: 50 });
  });

  it('does not de-duplicate user ids', () => {
    expect(parse(`${HEADER}\n${good('u1')}\n${good('u1')}\n`).rows.map((r) => r.userId)).toEqual(['u1', 'u1']);
  });

  it('returns no rows and every error for a file where every row is bad', () => {
    const result = parse(`${HEADER}\n,Jane,,,${CTA_CELL}\nu2,,,,${CTA_CELL}\nu3,Jane\nu4,Jane,,,nope\n`);
    expect(result.rows).toEqual([]);
    expect(result.dataRows).toBe(4);
    expect(result.errors.map((e) => e.row)).toEqual([2, 3, 4, 5]);
  });
});

describe('recipients CSV: image/action cells over many rows', () => {
  const cta = (n: number) => `"{""type"":""web"",""data"":""https://shop.example/${n}""}"`;

  it('reads every distinct cell and reports a bad one far into the file (past the cache trial)', () => {
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i === 2500 ? `u${i},Jane,,,"{not json"` : `u${i},Jane,,,${cta(i)}`,
    );
    const result = parse(`${HEADER}\n${lines.join('\n')}\n`);
    expect(result.rows).toHaveLength(2999);
    expect(result.rows[2999 - 1]!.variables.cta).toEqual({ type: 'web', data: 'https://shop.example/2999' });
    expect(result.rows[1234]!.variables.cta).toEqual({ type: 'web', data: 'https://shop.example/1234' });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.row).toBe(2502);
    expect(result.errors[0]!.reason).toMatch(/column cta: not valid JSON/);
  });

  it('parses a repeated cell once: rows share the same frozen value', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `u${i},Jane,,,${CTA_CELL}`);
    const result = parse(`${HEADER}\n${lines.join('\n')}\n`);
    expect(result.rows).toHaveLength(3000);
    expect(result.rows[2999]!.variables.cta).toBe(result.rows[0]!.variables.cta);
    expect(Object.isFrozen(result.rows[0]!.variables.cta)).toBe(true);
  });
});
