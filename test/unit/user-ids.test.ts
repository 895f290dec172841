/**
 * The user-ID list check (a send's targets, a campaign's userIds) runs once over the array
 * with a fast path for ids that start with a visible ASCII character; it must refuse exactly
 * the ids that are blank by JavaScript's own trim, and name each one by its index. A list of
 * strings skips zod's element-by-element parse: whatever the input, the answer must be the
 * one zod alone gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { userIdList, userIdListParsedByZod } from '../../src/schemas/user-ids.js';

const schema = userIdList();
const blankIndexes = (ids: string[]) => ids.flatMap((id, i) => (id.trim().length === 0 ? [i] : []));
const reported = (ids: unknown[]) =>
  (schema.safeParse(ids).error?.issues ?? []).filter((issue) => issue.code === 'custom').map((issue) => issue.path[0]);

// Every kind of whitespace JavaScript trims, some it does not (U+200B, U+180E), and ordinary characters.
const char = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\u3000',
  '\u200b',
  '\u180e',
  'a',
  'Z',
  '0',
  '-',
  'é',
  '😀',
);
const id = fc.array(char, { maxLength: 4 }).map((chars) => chars.join(''));

describe('userIdList', () => {
  it('refuses exactly the ids that trim to nothing, each by its index', () => {
    fc.assert(
      fc.property(fc.array(id, { minLength: 1, maxLength: 20 }), (ids) => {
        expect(reported(ids)).toEqual(blankIndexes(ids));
      }),
      { seed: 14, numRuns: 500 },
    );
  });

  it('names blank ids and ids of the wrong type in the same answer', () => {
    const issues = schema.safeParse(['ok', ' ', 3]).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.message]).sort()).toEqual([
      ['1', 'must be a non-empty user ID (string)'],
      ['2', 'Invalid input: expected string, received number'],
    ]);
  });

  it('refuses an empty list and a value that is not a list', () => {
    expect(schema.safeParse([]).error?.issues[0]?.message).toBe('must contain at least 1 user ID');
    expect(schema.safeParse('u1').error?.issues[0]?.message).toBe('must be an array of user IDs');
  });

  it('answers whatever it is given as zod alone does, with a cap on the length or without', () => {
    const byZod = userIdListParsedByZod();
    const capped = [userIdList({ count: 3, message: 'too many' }), byZod.max(3, 'too many')] as const;
    const anything = fc.oneof(
      fc.array(fc.oneof(id, id, fc.jsonValue({ maxDepth: 2 })), { maxLength: 6 }),
      fc.array(id, { maxLength: 6 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(anything, (value) => {
        for (const [ours, zods] of [[schema, byZod], capped] as const) {
          const [a, b] = [ours.safeParse(value), zods.safeParse(value)];
          expect(a.success).toBe(b.success);
          expect(a.data).toEqual(b.data);
          expect(a.error?.issues).toEqual(b.error?.issues);
        }
      }),
      { seed: 20261126, numRuns: 1_000 },
    );
  });
});
