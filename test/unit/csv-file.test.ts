/**
 * Recipients CSV, file level (docs/reference.md#upload-recipients-csv): encoding, quoting, line ends, blank lines,
 * header rules and the row limit. Each refusal is a 400 ERR_BAD_REQUEST naming the place.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CSV_ROWS } from '../../src/domain/csv.js';
import { BANNER_CELL, CTA_CELL, LOOSE, NO_VARIABLES, bytes, fileError, parse } from '../helpers/csv.js';

const HEADER = 'user_id,customerName,cta';

describe('recipients CSV: format', () => {
  it('reads rows with spreadsheet numbering: header row 1, first record row 2', () => {
    const result = parse(`${HEADER}\nu1,Jane,${CTA_CELL}\nu2,Bob,${CTA_CELL}\n`);
    expect(result.errors).toEqual([]);
    expect(result.dataRows).toBe(2);
    expect(result.rows).toEqual([
      {
        row: 2,
        userId: 'u1',
        variables: { customerName: 'Jane', cta: { type: 'web', data: 'https://shop.example/t' } },
      },
      {
        row: 3,
        userId: 'u2',
        variables: { customerName: 'Bob', cta: { type: 'web', data: 'https://shop.example/t' } },
      },
    ]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted cells', () => {
    const result = parse(
      `${HEADER}\nu1,"Doe, Jane ""JD""",${CTA_CELL}\nu2,"line one\nline two",${CTA_CELL}\nu3,Ann,${CTA_CELL}`,
    );
    expect(result.rows.map((r) => r.variables.customerName)).toEqual(['Doe, Jane "JD"', 'line one\nline two', 'Ann']);
    // a multi-line cell is still one record, so the next record is row 4
    expect(result.rows.map((r) => r.row)).toEqual([2, 3, 4]);
  });

  it('reads CRLF files like LF files, and files that mix CRLF, LF and CR', () => {
    const lf = parse(`${HEADER}\nu1,Jane,${CTA_CELL}\nu2,Bob,${CTA_CELL}\n`);
    expect(parse(`${HEADER}\r\nu1,Jane,${CTA_CELL}\r\nu2,Bob,${CTA_CELL}\r\n`)).toEqual(lf);
    expect(parse(`${HEADER}\nu1,Jane,${CTA_CELL}\r\nu2,Bob,${CTA_CELL}\r`)).toEqual(lf);
  });

  it('turns CRLF inside a quoted cell into LF', () => {
    expect(parse(`${HEADER}\r\nu1,"a\r\nb",${CTA_CELL}\r\n`).rows[0]?.variables.customerName).toBe('a\nb');
  });

  it('ignores a UTF-8 byte order mark before the header', () => {
    const text = `${HEADER}\nu1,Zoë 😀,${CTA_CELL}\n`;
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(text)]);
    const result = parse(withBom);
    expect(result.rows[0]?.userId).toBe('u1');
    expect(result.rows[0]?.variables.customerName).toBe('Zoë 😀');
  });

  it('ignores blank lines, lines of only commas, and trailing blank lines, keeping record numbers', () => {
    const result = parse(`\n${HEADER}\nu1,Jane,${CTA_CELL}\n\n,,\nu2,Bob,${CTA_CELL}\n\n\n\n`);
    expect(result.errors).toEqual([]);
    expect(result.dataRows).toBe(2);
    expect(result.rows.map((r) => [r.row, r.userId])).toEqual([
      [3, 'u1'],
      [6, 'u2'],
    ]);
  });

  it('accepts a header with no data rows as zero recipients', () => {
    expect(parse(`${HEADER}\n`)).toEqual({ rows: [], errors: [], dataRows: 0 });
    expect(parse('user_id', NO_VARIABLES)).toEqual({ rows: [], errors: [], dataRows: 0 });
  });

  it('answers 400 naming the file when the bytes are not valid UTF-8', () => {
    const error = fileError(new Uint8Array([...bytes('user_id\nu'), 0xff, 0xfe, 0x0a]), NO_VARIABLES);
    expect(error.devMessage).toMatch(/UTF-8/);
    expect(error.details).toEqual({ file: 'is not valid UTF-8' });
  });

  it('answers 400 naming the row of an unterminated quote', () => {
    const error = fileError(`${HEADER}\nu1,Jane,${CTA_CELL}\nu2,"Bob,${CTA_CELL}\n`);
    expect(Object.keys(error.details ?? {})).toContain('row 3');
    expect(error.devMessage).toMatch(/row 3/);
  });

  it('answers 400 for text after a closing quote', () => {
    const error = fileError(`user_id\n"u1"x\nu2\n`, NO_VARIABLES);
    expect(Object.keys(error.details ?? {})).toContain('row 2');
  });

  it('answers 400 for an empty file and a file of blank lines', () => {
    expect(fileError('').details).toEqual({ 'row 1': 'is missing: the file has no header row' });
    expect(fileError('\n\r\n\n').devMessage).toMatch(/empty/);
  });

  it('does not auto-detect other delimiters: a semicolon file has no user_id column', () => {
    expect(Object.keys(fileError('user_id;a\nu1;x\n', LOOSE).details ?? {})).toContain('column user_id;a');
  });
});

describe('recipients CSV: header row', () => {
  it('accepts userId as an alias of user_id', () => {
    const result = parse('userId,a\nu1,x\n', LOOSE);
    expect(result.rows).toEqual([{ row: 2, userId: 'u1', variables: { a: 'x' } }]);
  });

  it('accepts the user id column at any position and optional columns left out', () => {
    expect(parse(`cta,user_id,customerName\n${CTA_CELL},u1,Jane\n`).rows[0]?.userId).toBe('u1');
  });

  it('answers 400 when there is no user_id column (header only, too)', () => {
    for (const text of ['a,b\nx,y\n', 'a,b\n']) {
      const error = fileError(text, LOOSE);
      expect(error.details).toEqual({ 'column user_id': expect.stringMatching(/missing/) });
    }
  });

  it('answers 400 when both user_id and userId are present', () => {
    expect(fileError('user_id,userId\nu1,u1\n', LOOSE).details).toHaveProperty('column userId');
  });

  it('answers 400 for a header name with a space or another character outside [A-Za-z0-9_-]', () => {
    expect(fileError('user_id,customer name\nu1,x\n', LOOSE).details).toEqual({
      'column customer name': expect.stringMatching(/letters, digits/),
    });
    expect(fileError('user_id,a.b\nu1,x\n', LOOSE).details).toHaveProperty('column a.b');
    expect(fileError(' user_id\nu1\n', NO_VARIABLES).details).toHaveProperty('column  user_id');
  });

  it('answers 400 for an empty header name', () => {
    expect(fileError('user_id,,a\nu1,x,y\n', LOOSE).details).toHaveProperty('column #2', 'has an empty name');
  });

  it('answers 400 for a column that is not a variable of the template', () => {
    const error = fileError('user_id,a,coupon\nu1,x,SAVE\n', LOOSE);
    expect(error.details).toEqual({
      'column coupon': 'is not a variable of template "csv-test" (its variables: a, b)',
    });
    expect(error.devMessage).toMatch(/column coupon/);
  });

  it('answers 400 for duplicate header names', () => {
    expect(fileError('user_id,a,a\nu1,x,y\n', LOOSE).details).toEqual({
      'column a': 'appears 2 times in the header row',
    });
    expect(fileError('user_id,user_id\nu1,u1\n', LOOSE).details).toHaveProperty('column user_id');
  });

  it('answers 400 when a required variable has no column, naming every missing one', () => {
    expect(fileError('user_id,note\nu1,x\n').details).toEqual({
      'column customerName': expect.stringMatching(/requires variable "customerName"/),
      'column cta': expect.stringMatching(/requires variable "cta"/),
    });
  });

  it('matches header names case-sensitively', () => {
    expect(fileError('USER_ID\nu1\n', NO_VARIABLES).details).toHaveProperty('column USER_ID');
  });
});

describe('recipients CSV: row limit', () => {
  const ids = (count: number, suffix = ''): string => {
    const lines = ['user_id'];
    for (let i = 1; i <= count; i++) lines.push(`user-${i}`);
    return lines.join('\n') + suffix;
  };

  it(`accepts exactly ${MAX_CSV_ROWS} data rows`, () => {
    const result = parse(ids(MAX_CSV_ROWS, '\n\n'), NO_VARIABLES);
    expect(result.rows).toHaveLength(MAX_CSV_ROWS);
    expect(result.rows.at(-1)).toEqual({ row: MAX_CSV_ROWS + 1, userId: `user-${MAX_CSV_ROWS}`, variables: {} });
  });

  it(`answers 400 with the limit and the count for ${MAX_CSV_ROWS + 1} data rows`, () => {
    const error = fileError(ids(MAX_CSV_ROWS + 1), NO_VARIABLES);
    expect(error.devMessage).toContain('100001');
    expect(error.devMessage).toContain('100000');
  });

  it('counts only non-blank records against maxRows', () => {
    expect(parse('user_id\nu1\n\n\nu2\n,\nu3\n\n', NO_VARIABLES, { maxRows: 3 }).rows).toHaveLength(3);
    expect(fileError('user_id\nu1\nu2\nu3\nu4\n', NO_VARIABLES, { maxRows: 3 }).details).toEqual({
      file: 'has 4 data rows, more than the limit of 3',
    });
  });

  it('reads image cells into objects', () => {
    const result = parse(`user_id,customerName,cta,banner\nu1,Jane,${CTA_CELL},${BANNER_CELL}\n`);
    expect(result.rows[0]?.variables.banner).toEqual({ url: 'https://cdn.example/b.png', width: 100, height: 50 });
  });
});
