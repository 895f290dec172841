/**
 * What a refused recipients CSV says, word for word (the header row's problems, the delimiter
 * hint, a quoting error), and what a refused file hands the row sink: nothing read after the
 * point where the file is already refused.
 */
import { describe, expect, it } from 'vitest';
import { createRecipientsCsvReader } from '../../src/domain/csv.js';
import { ApiError } from '../../src/domain/errors.js';
import { LOOSE, NO_VARIABLES, ORDER, bytes, fileError, parse } from '../helpers/csv.js';

/** A streaming reader fed `pieces`, and the user ids its sink received before end() refused the file. */
function refuse(template: typeof LOOSE, pieces: Uint8Array[], maxRows?: number) {
  const seen: string[] = [];
  const reader = createRecipientsCsvReader(template, (_row, userId) => seen.push(userId), { maxRows });
  for (const piece of pieces) reader.write(piece);
  try {
    reader.end();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { error: error as ApiError, seen };
  }
  throw new Error('expected the file to be refused');
}

describe('the header row refusal', () => {
  it('names the header row, then each problem with its column, in one devMessage', () => {
    const error = fileError('\nuser_id,userId,coupon\nu1,u1,x\n', LOOSE);
    expect(error.devMessage).toBe(
      'The CSV header row (row 2) is not accepted: column coupon is not a variable of template "csv-test" ' +
        '(its variables: a, b); column userId duplicates the user_id column: use only one of user_id and userId.',
    );
    expect(error.details).toEqual({
      'column coupon': 'is not a variable of template "csv-test" (its variables: a, b)',
      'column userId': 'duplicates the user_id column: use only one of user_id and userId',
    });
  });

  it('says "none" for a template without variables', () => {
    expect(fileError('user_id,a\nu1,x\n', NO_VARIABLES).details).toEqual({
      'column a': 'is not a variable of template "csv-test" (its variables: none)',
    });
  });

  it.each([
    [';', '";"'],
    ['\t', 'tab'],
    ['|', '"|"'],
  ])('hints that a one-column header holding %j is delimited by it', (delimiter, shape) => {
    const header = ['user_id', 'a'].join(delimiter);
    const error = fileError(`${header}\nu1${delimiter}x\n`, LOOSE);
    expect(error.devMessage).toBe(
      `The CSV header row (row 1) is not accepted: column ${header} has a bad name: column names may hold only ` +
        `letters, digits, "_" and "-"; column user_id is missing: the header row needs a user_id (or userId) ` +
        `column. The header row looks ${shape}-delimited: the delimiter must be a comma (",").`,
    );
    expect(error.details?.delimiter).toBe(`must be a comma; the header row holds ${JSON.stringify(delimiter)} instead`);
  });

  it('gives no hint when the header has several columns, or one without another delimiter', () => {
    for (const text of ['user_id,a;b\nu1,x\n', 'a;b,user_id\nx,u1\n', 'a\nx\n']) {
      const error = fileError(text, LOOSE);
      expect(error.devMessage).not.toContain('delimited');
      expect(error.details).not.toHaveProperty('delimiter');
    }
  });

  it('is raised with data rows after it, and hands none of them to the sink', () => {
    const { error, seen } = refuse(LOOSE, [bytes('user_id,coupon\nu1,x\nu2,y\n')]);
    expect(Object.keys(error.details ?? {})).toEqual(['column coupon']);
    expect(seen).toEqual([]);
  });
});

describe('a quoting error', () => {
  it('names its first row, the parser reason and the way out', () => {
    const error = fileError('user_id\n"u1"x\nu2\n', NO_VARIABLES);
    expect(error.devMessage).toBe(
      'The CSV file cannot be parsed: row 2: Trailing quote on quoted field is malformed (InvalidQuotes). Quote ' +
        'cells holding commas, quotes or line breaks, and double the quotes inside them.',
    );
    expect(error.details).toEqual({ 'row 2': 'Trailing quote on quoted field is malformed (InvalidQuotes)' });
  });

  it('lists at most 20 rows in details', () => {
    const bad = Array.from({ length: 25 }, (_, i) => `"u${i}"x"`); // one error per row
    const error = fileError(`user_id\n${bad.join('\n')}\n`, NO_VARIABLES);
    expect(Object.keys(error.details ?? {})).toEqual(Array.from({ length: 20 }, (_, i) => `row ${i + 2}`));
  });

  it('stops rows reaching the sink: the file is refused whatever follows', () => {
    const { error, seen } = refuse(NO_VARIABLES, [bytes('user_id\nu1\n"u2"x"\nu3\nu4\n')]);
    expect(error.devMessage).toMatch(/^The CSV file cannot be parsed: row 3: /);
    expect(seen).toEqual(['u1']);
  });
});

describe('bytes that are not UTF-8', () => {
  it('refuses a file that ends inside a multi-byte character', () => {
    const euro = bytes('€'); // three bytes; the file keeps the first two
    const error = fileError(new Uint8Array([...bytes('user_id\nu1'), ...euro.slice(0, 2)]), NO_VARIABLES);
    expect(error.details).toEqual({ file: 'is not valid UTF-8' });
    expect(error.devMessage).toBe('The CSV file is not valid UTF-8: save it with UTF-8 encoding.');
  });

  it('reads nothing after them', () => {
    const { error, seen } = refuse(NO_VARIABLES, [
      bytes('user_id\nu1\n'),
      new Uint8Array([0xff, 0x0a]),
      bytes('u2\nu3\n'),
    ]);
    expect(error.details).toEqual({ file: 'is not valid UTF-8' });
    expect(seen).toEqual(['u1']);
  });
});

describe('the row limit', () => {
  it('hands the sink at most maxRows rows of a file it then refuses', () => {
    const { error, seen } = refuse(NO_VARIABLES, [bytes('user_id\nu1\nu2\nu3\nu4\n')], 2);
    expect(error.devMessage).toBe('The CSV file has 4 data rows; at most 2 are accepted per file.');
    expect(seen).toEqual(['u1', 'u2']);
  });
});

describe('the variables of a row', () => {
  it('hold exactly the columns of the file that have a value', () => {
    const row = parse('user_id,customerName,cta\nu1,Ada,"{""type"":""web"",""data"":""d""}"\n', ORDER).rows[0]!;
    expect(Object.keys(row.variables)).toEqual(['customerName', 'cta']);
  });
});
