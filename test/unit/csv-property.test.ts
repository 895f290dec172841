/**
 * Property-based checks of the recipients CSV parser: any table written by papaparse reads
 * back unchanged, and no input makes it throw anything but a 400 ERR_BAD_REQUEST.
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { LOOSE, ORDER, bytes, makeTemplate, parse } from '../helpers/csv.js';

/** Cells mixing CSV-special characters with any code point. */
const cellText = fc.string({
  unit: fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(',', '"', '""', '\n', '\r', '\r\n', ' ', '\uFEFF', ';', '\t') },
    { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  ),
  maxLength: 12,
});
/** The parser reads every line end inside cells as LF (decided, see csv.ts). */
const normalised = (cell: string): string => cell.replace(/\r\n?/g, '\n');

describe('recipients CSV: properties', () => {
  it('reads back the user ids and string values of any table written by Papa.unparse', () => {
    const userId = cellText.filter((id) => id.trim() !== '');
    const row = fc.tuple(userId, cellText, cellText);
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 15 }),
        fc.boolean(),
        fc.constantFrom('\r\n', '\n'),
        (table, quotes, newline) => {
          const text = Papa.unparse({ fields: ['user_id', 'a', 'b'], data: table }, { quotes, newline });
          const result = parse(text, LOOSE);
          expect(result.errors).toEqual([]);
          expect(result.rows.map((r) => r.userId)).toEqual(table.map(([id]) => normalised(id)));
          result.rows.forEach((r, i) => {
            const [, a, b] = table[i] as [string, string, string];
            const expected: Record<string, string> = {};
            if (a !== '') expected.a = normalised(a);
            if (b !== '') expected.b = normalised(b);
            expect(r.variables).toEqual(expected);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  const accepted = (run: () => unknown): void => {
    try {
      const result = run() as { rows: unknown[]; errors: unknown[]; dataRows: number };
      expect(result.dataRows).toBe(result.rows.length + result.errors.length);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('ERR_BAD_REQUEST');
      expect((error as ApiError).status).toBe(400);
    }
  };

  it('never throws anything but a 400 ERR_BAD_REQUEST, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (input) => {
        accepted(() => parse(input, ORDER));
        accepted(() => parse(input, makeTemplate([])));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws anything but a 400 ERR_BAD_REQUEST for CSV-like text after a valid header', () => {
    const body = fc.string({
      unit: fc.constantFrom(',', '"', '\n', '\r', '{', '}', ':', 'u', 'x', ' ', '\uFFFD'),
      maxLength: 200,
    });
    const headers = ['user_id,customerName,cta', 'user_id,customerName,cta,banner,note', 'userId,cta,customerName'];
    fc.assert(
      fc.property(fc.constantFrom(...headers), body, fc.uint8Array({ maxLength: 8 }), (header, text, tail) => {
        accepted(() => parse(`${header}\n${text}`, ORDER));
        accepted(() => parse(new Uint8Array([...bytes(`${header}\n${text}`), ...tail]), ORDER));
      }),
      { numRuns: 500 },
    );
  });
});
