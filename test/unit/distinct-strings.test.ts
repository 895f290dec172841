/**
 * distinctStrings takes one of three paths (sorting a list that looks ascending, a hash
 * table, sorting when the table probes too long); each must give what a Set gives, and
 * give the list itself back when nothing repeats.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctStrings } from '../../src/domain/distinct-strings.js';

// Few distinct characters and short strings, so that repeats and near-repeats are common.
const id = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '😀', '-', '1'), maxLength: 4 });
const lists = fc.oneof(
  fc.array(id, { maxLength: 200 }),
  fc.array(id, { maxLength: 200 }).map((values) => values.sort()),
  fc.uniqueArray(id, { maxLength: 200 }),
  fc.uniqueArray(id, { maxLength: 200 }).map((values) => values.sort()),
);

function check(probesPerValue: number | undefined) {
  fc.assert(
    fc.property(lists, (values) => {
      const copy = values.slice();
      const distinct = distinctStrings(values, probesPerValue);
      expect(distinct).toEqual([...new Set(copy)]);
      expect(values).toEqual(copy);
      if (new Set(copy).size === copy.length) expect(distinct).toBe(values);
    }),
    { seed: 20261125, numRuns: 500 },
  );
}

describe('distinctStrings', () => {
  it('gives the distinct strings in first-seen order, and the list itself when nothing repeats', () => {
    check(undefined);
  });

  it('gives the same when the hash table runs out of probes and it sorts instead', () => {
    check(0);
  });

  it('finds a repeat far apart in 10,000 random ids and in 10,000 ascending ones', () => {
    const random = Array.from({ length: 10_000 }, (_, i) => `${((i * 2654435761) >>> 0).toString(16)}-${i}`);
    const ascending = random.slice().sort();
    for (const values of [random, ascending]) {
      expect(distinctStrings(values)).toBe(values);
      const repeated = [...values, values[0] as string];
      expect(distinctStrings(repeated)).toEqual(values);
    }
  });
});
