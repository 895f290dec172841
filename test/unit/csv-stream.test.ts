/**
 * The streaming reader behind the upload (readRecipientsCsv): rows reach the sink as they
 * are read, and file-level checks keep their order and row numbers without a table of the file.
 */
import { describe, expect, it } from 'vitest';
import { readRecipientsCsv, type CsvRecipientRow } from '../../src/domain/csv.js';
import { CTA_CELL, LOOSE, NO_VARIABLES, ORDER, bytes, fileError } from '../helpers/csv.js';

function collect(text: string, template = ORDER, maxRows?: number) {
  const rows: CsvRecipientRow[] = [];
  const summary = readRecipientsCsv(
    bytes(text),
    template,
    (row, userId, variables) => rows.push({ row, userId, variables }),
    { maxRows },
  );
  return { rows, ...summary };
}

describe('recipients CSV: streaming reader', () => {
  it('hands each accepted row to the sink in file order, and neither blank nor bad rows', () => {
    const result = collect(`user_id,customerName,cta\n\nu1,Ann,${CTA_CELL}\n,Bob,${CTA_CELL}\n,,\nu3,Cy,${CTA_CELL}\n`);
    expect(result.rows.map((r) => [r.row, r.userId])).toEqual([
      [3, 'u1'],
      [6, 'u3'],
    ]);
    expect(result.errors).toEqual([{ row: 4, reason: 'user_id is empty' }]);
    expect(result.dataRows).toBe(3);
  });

  it('lets what the sink throws go on up, on the last record too, instead of calling the file not UTF-8', () => {
    const failing = (_row: number, userId: string) => {
      if (userId === 'u-boom') throw new Error('disk on fire');
    };
    for (const text of ['user_id\nu-boom\nu2\n', 'user_id\nu1\nu-boom']) {
      expect(() => readRecipientsCsv(bytes(text), NO_VARIABLES, failing), text).toThrow('disk on fire');
    }
  });

  it('numbers records, not lines, across mixed CRLF, LF and CR and multi-line cells', () => {
    const result = collect('user_id,a\r\nu1,"x\r\ny"\ru2,z\n\r\nu3,w', LOOSE);
    expect(result.rows.map((r) => [r.row, r.userId, r.variables.a])).toEqual([
      [2, 'u1', 'x\ny'],
      [3, 'u2', 'z'],
      [5, 'u3', 'w'],
    ]);
  });

  it('names the row of a quoting error after CR line ends and multi-line cells', () => {
    const error = fileError('user_id,a\ru1,"x\ny"\r\nu2,b\n"u3,c\n', LOOSE);
    expect(Object.keys(error.details ?? {})).toEqual(['row 4']);
  });

  it('reports a quoting error even after a bad header or past the row limit (the whole file check order)', () => {
    expect(Object.keys(fileError('user_id,coupon\nu1,x\n"u2\n', LOOSE).details ?? {})).toEqual(['row 3']);
    expect(Object.keys(fileError('user_id\nu1\nu2\nu3\n"u4\n', NO_VARIABLES, { maxRows: 2 }).details ?? {})).toEqual([
      'row 5',
    ]);
  });

  it('reports a bad header before the row limit, and counts every row past the limit', () => {
    expect(fileError('user_id,coupon\nu1,x\nu2,y\nu3,z\n', LOOSE, { maxRows: 2 }).details).toHaveProperty(
      'column coupon',
    );
    expect(fileError('user_id\nu1\nu2\n\nu3\nu4\nu5\n', NO_VARIABLES, { maxRows: 2 }).details).toEqual({
      file: 'has 5 data rows, more than the limit of 2',
    });
  });
});
