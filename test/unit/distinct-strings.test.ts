/**
 * distinctStrings takes one of four paths (a few ascending runs searched in each other,
 * sorting a list that looks ascending, a hash table, sorting when the table probes too
 * long); each must give what a Set gives, and give the list itself back when nothing repeats.
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
  // A few ascending runs, as ids numbered by an app make them (user-9, user-10…), sharing strings or not.
  fc
    .array(fc.uniqueArray(id, { maxLength: 60 }), { minLength: 2, maxLength: 20 })
    .map((runs) => runs.flatMap((run) => run.sort())),
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

  it('finds a repeat between the runs of ids numbered by an app, wherever it sits', () => {
    // user-0…user-9999 make four ascending runs of 10, 90, 900 and 9,000 ids.
    const numbered = Array.from({ length: 10_000 }, (_, i) => `user-${i}`);
    expect(distinctStrings(numbered)).toBe(numbered);
    for (const [repeat, at] of [
      [5, 20], // a short run's id in a longer run
      [9_999, 3], // the longest run's last id in the shortest run
      [150, 9_500], // an id of the middle run near the end
      [0, 10_000], // the very first id, last
    ] as const) {
      const values = numbered.slice();
      values.splice(at, 0, `user-${repeat}`);
      const distinct = distinctStrings(values);
      expect(distinct).toHaveLength(10_000);
      expect(distinct).toEqual([...new Set(values)]);
    }
  });

  it('gives the same for runs of like lengths and for more runs than it compares', () => {
    const run = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `id-${String(from + i).padStart(5, '0')}`);
    const equalRuns = [...run(0, 500), ...run(250, 500)]; // two runs of 500 sharing 250 ids
    expect(distinctStrings(equalRuns)).toEqual([...new Set(equalRuns)]);
    const manyRuns = Array.from({ length: 40 }, (_, i) => run(i * 10, 10))
      .flat()
      .reverse();
    expect(distinctStrings(manyRuns)).toBe(manyRuns);
    const manyWithRepeat = [...manyRuns, 'id-00123'];
    expect(distinctStrings(manyWithRepeat)).toEqual(manyRuns);
  });

  it('finds repeats among random ids that share their end or differ only far from it', () => {
    const shuffled = (count: number, id: (n: number) => string) =>
      Array.from({ length: count }, (_, i) => id(((i * 2654435761) >>> 0) % 1_000_003));
    const lists = [
      // The same domain after every address: the characters before it tell them apart.
      shuffled(5_000, (n) => `person.${n.toString(36)}@example.com`),
      // Alike in their last 20 characters: every hash collides and the list is sorted instead.
      shuffled(5_000, (n) => `${n.toString(36)}-${'x'.repeat(20)}`),
      // Two lengths, one the other's suffix.
      shuffled(5_000, (n) => (n % 2 === 0 ? `${n}` : `a-${n}-b`)),
    ];
    for (const values of lists) {
      expect(new Set(values).size).toBe(values.length);
      expect(distinctStrings(values)).toBe(values);
      for (const at of [0, 2_500, 4_999]) {
        const repeated = values.slice();
        repeated.splice(1 + ((at * 7) % repeated.length), 0, values[at] as string);
        const distinct = distinctStrings(repeated);
        expect(distinct).toHaveLength(values.length);
        expect(distinct).toEqual([...new Set(repeated)]);
      }
    }
  });
});
