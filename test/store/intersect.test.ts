/**
 * The positions common to ascending lists (src/store/common/intersect.ts) against filtering
 * the first list: any lists, short or long enough to gallop through, with positions counted
 * from a base that may make them wrap past 2^32. A list refuses to be read outside its count,
 * as its contract says (a ring of numbers answers garbage there).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intersect, type AscendingList } from '../../src/store/common/intersect.js';

/** `values` as stored mod 2^32, read only within its count. */
function listOf(values: readonly number[]): AscendingList {
  const stored = values.map((v) => v >>> 0);
  return {
    count: stored.length,
    at(i) {
      if (!Number.isInteger(i) || i < 0 || i >= stored.length) throw new RangeError(`read at ${i} of ${stored.length}`);
      return stored[i]!;
    },
  };
}

/** The indexes into `lists[0]` of the values every other list holds. */
const model = (lists: readonly (readonly number[])[]): number[] =>
  lists[0]!.flatMap((v, i) => (lists.slice(1).every((list) => list.includes(v)) ? [i] : []));

/** Ascending distinct offsets from the base, some lists dense and some sparse. */
const offsetsArb = fc.oneof(
  fc.uniqueArray(fc.nat(40), { maxLength: 30 }),
  fc.uniqueArray(fc.nat(400), { maxLength: 120 }),
  fc.uniqueArray(fc.nat(12), { maxLength: 12 }),
);

describe('intersect', () => {
  it('finds the values every list holds, as filtering the first list does', () => {
    fc.assert(
      fc.property(
        fc.array(offsetsArb, { minLength: 1, maxLength: 4 }),
        fc.oneof(fc.constant(0), fc.constant(2 ** 32 - 5), fc.nat(2 ** 32 - 1)),
        (offsets, base) => {
          const sorted = offsets.map((list) => [...list].sort((a, b) => a - b));
          const lists = sorted.map((list) => listOf(list.map((o) => base + o)));
          expect([...intersect(lists, base)]).toEqual(model(sorted));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gallops through a long list to the few values a short one holds', () => {
    const long = Array.from({ length: 1000 }, (_, i) => i * 2);
    const short = [1, 6, 7, 500, 1998, 1999, 2500];
    expect([...intersect([listOf(short), listOf(long)], 0)]).toEqual([1, 3, 4]);
    // Each value of the long list at the very end, and just before it.
    expect([...intersect([listOf([1996, 1998]), listOf(long)], 0)]).toEqual([0, 1]);
    expect([...intersect([listOf([0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]), listOf(long)], 0)]).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
  });

  it('stops at a list that has nothing left, even one that holds nothing', () => {
    expect([...intersect([listOf([7]), listOf([])], 7)]).toEqual([]);
    expect([...intersect([listOf([0]), listOf([])], 0)]).toEqual([]);
    expect([...intersect([listOf([0, 1, 2]), listOf([0])], 0)]).toEqual([0]);
    expect([...intersect([listOf([3, 5]), listOf([1, 2, 3])], 0)]).toEqual([0]);
  });

  it('compares positions past 2^32 by their distance from the base', () => {
    const base = 2 ** 32 - 2;
    // 2^32-2, 2^32-1, then 0, 1, 2 (wrapped): ascending from the base.
    const first = listOf([base, base + 1, base + 2, base + 3, base + 4]);
    const other = listOf([base + 1, base + 3]);
    expect([...intersect([first, other], base)]).toEqual([1, 3]);
    expect([...intersect([first], base)]).toEqual([0, 1, 2, 3, 4]);
  });

  it('answers one list whole, and a first list of none with none', () => {
    expect([...intersect([listOf([4, 9])], 0)]).toEqual([0, 1]);
    expect([...intersect([listOf([]), listOf([1, 2])], 0)]).toEqual([]);
  });
});
