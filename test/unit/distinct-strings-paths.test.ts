/**
 * The paths of distinctStrings one by one. Each path falls back on another when it gives up,
 * so a path that gives up too early, too late or on the wrong list still gets the right answer
 * from distinctStrings (distinct-strings.test.ts checks that answer): only the path's own
 * answer shows it chose wrong.
 */
import { describe, expect, it } from 'vitest';
import {
  ascendingRuns,
  distinctStrings,
  looksAscending,
  repeatsAcrossRuns,
  repeatsByHashing,
  searchCost,
  sharedSuffixLength,
  tailHash,
} from '../../src/domain/distinct-strings.js';

const letters = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => String.fromCharCode(97 + from + i));

describe('distinctStrings on the shortest lists', () => {
  it('drops the repeat of a two-string list and gives a list of one or none back as it is', () => {
    expect(distinctStrings(['a', 'a'])).toEqual(['a']);
    const two = ['b', 'a'];
    expect(distinctStrings(two)).toBe(two);
    const one = ['a'];
    expect(distinctStrings(one)).toBe(one);
  });

  it('sorts when the hash table gives up, and still finds the repeat', () => {
    // 20 strings alike in their last 8 characters, in descending order (20 runs), and one repeat.
    const colliding = Array.from({ length: 20 }, (_, i) => `${String.fromCharCode(116 - i)}abcdefghX`);
    const values = [...colliding, 'Y', 'tabcdefghX'];
    expect(repeatsByHashing(values, 1)).toBeUndefined();
    expect(distinctStrings(values, 1)).toEqual([...colliding, 'Y']);
  });
});

describe('ascendingRuns', () => {
  it('gives where each strictly ascending run starts', () => {
    expect(ascendingRuns(['a', 'b', 'a', 'c'])).toEqual([0, 2]);
    expect(ascendingRuns(['c', 'b', 'a'])).toEqual([0, 1, 2]);
    expect(ascendingRuns(['a', 'b', 'c'])).toEqual([0]);
  });

  it('says "repeat" when two neighbours are equal', () => {
    expect(ascendingRuns(['a', 'b', 'b', 'c'])).toBe('repeat');
  });

  it('gives up past 16 runs, not at 16', () => {
    const descending = (count: number) => letters(0, count).reverse();
    expect(ascendingRuns(descending(16))).toHaveLength(16);
    expect(ascendingRuns(descending(17))).toBeUndefined();
  });
});

describe('searchCost', () => {
  it('is m·2·log2(n/m + 1) for the shorter run m, whichever order the runs come in', () => {
    expect(searchCost(10, 1000)).toBeCloseTo(20 * Math.log2(101), 10);
    expect(searchCost(1000, 10)).toBeCloseTo(20 * Math.log2(101), 10);
    expect(searchCost(4, 4)).toBe(8);
  });
});

describe('repeatsAcrossRuns', () => {
  it('searches the runs in each other while that costs no more comparisons than there are strings', () => {
    // Two runs of 5: 5·2·log2(2) = 10 comparisons for 10 strings.
    const apart = [...letters(0, 5), ...letters(5, 5).map((s) => s.toUpperCase())];
    expect(repeatsAcrossRuns(apart, [0, 5])).toBe(false);
    const sharing = [...letters(0, 5), ...letters(2, 5)];
    expect(repeatsAcrossRuns(sharing, [0, 5])).toBe(true);
  });

  it('finds a string of a short run anywhere in a long one, before or after it', () => {
    const long = letters(0, 20);
    for (const wanted of ['a', 'j', 't']) {
      expect(repeatsAcrossRuns([...long, wanted], [0, 20])).toBe(true);
      expect(repeatsAcrossRuns([wanted, ...long], [0, 1])).toBe(true);
    }
    expect(repeatsAcrossRuns([...long, 'B'], [0, 20])).toBe(false);
    expect(repeatsAcrossRuns(['z', ...long], [0, 1])).toBe(false);
    // The short run holds strings below, between and above the long run's.
    const odd = ['a', 'c', 'e', 'g', 'i', 'k', 'm', 'o', 'q', 's', 'u', 'w'];
    expect(repeatsAcrossRuns(['b', 'd', 'z', ...odd], [0, 3])).toBe(false);
    expect(repeatsAcrossRuns(['b', 'd', 's', ...odd], [0, 3])).toBe(true);
  });

  it('counts each pair of runs by their lengths, not by where they start', () => {
    // Runs of 1, 1 and 18: 2 + 8.5 + 8.5 comparisons for 20 strings.
    expect(repeatsAcrossRuns(['y', 'x', ...letters(0, 18)], [0, 1, 2])).toBe(false);
    expect(repeatsAcrossRuns(['y', 'b', ...letters(0, 18)], [0, 1, 2])).toBe(true);
  });

  it("finds the long run's last string when the run after it starts lower: no search reads past the long run", () => {
    // a0…a7, then a45 and a7: a45 stops the search at a5, and the gallop for a7 probes a5, a6,
    // then one past a7, where a45 (below a7) would send it on past the run.
    const eight = Array.from({ length: 8 }, (_, i) => `a${i}`);
    const pastGallop = [...eight, 'a45', 'a7'];
    expect(repeatsAcrossRuns(pastGallop, [0, 8])).toBe(true);
    expect(distinctStrings(pastGallop)).toEqual([...eight, 'a45']);
    // a0…a9, then a45 and a9: the gallop for a9 stops two past the run; the binary search must
    // stop at its end, not at the gallop's last probe, where a45 would send it on past a9.
    const ten = Array.from({ length: 10 }, (_, i) => `a${i}`);
    const pastSearch = [...ten, 'a45', 'a9'];
    expect(repeatsAcrossRuns(pastSearch, [0, 10])).toBe(true);
    expect(distinctStrings(pastSearch)).toEqual([...ten, 'a45']);
  });

  it('takes any split into ascending runs, a run that ends below the next one starts included', () => {
    // Neither run holds a string of the other, though each run's next string is in the other run.
    expect(repeatsAcrossRuns(['a', 'b'], [0, 1])).toBe(false);
    expect(repeatsAcrossRuns(['a', 'b', 'c', 'd'], [0, 3])).toBe(false);
    expect(repeatsAcrossRuns(['a', 'b', 'c', 'b'], [0, 3])).toBe(true);
  });

  it('gives up (undefined) when runs of like lengths would cost more than sorting', () => {
    // Three runs of 4: three pairs at 8 comparisons each, 24 for 12 strings.
    const three = [...letters(0, 4), ...letters(4, 4), ...letters(8, 4)];
    expect(repeatsAcrossRuns(three, [0, 4, 8])).toBeUndefined();
  });
});

describe('looksAscending', () => {
  it('compares only neighbours at every (length / 32)th place', () => {
    const ascending = Array.from({ length: 64 }, (_, i) => `id-${String(i).padStart(2, '0')}`);
    expect(looksAscending(ascending)).toBe(true);
    // 64 strings: it compares [2] with [1], [4] with [3]… so a descent from [0] to [1] goes unseen.
    const unseen = ascending.slice();
    [unseen[0], unseen[1]] = [unseen[1] as string, unseen[0] as string];
    expect(looksAscending(unseen)).toBe(true);
    const seen = ascending.slice();
    [seen[1], seen[2]] = [seen[2] as string, seen[1] as string];
    expect(looksAscending(seen)).toBe(false);
    expect(looksAscending(['b', 'a'])).toBe(false);
    expect(looksAscending(['a', 'a', 'b'])).toBe(true);
  });
});

describe('tailHash', () => {
  it('hashes the length and the last 8 characters before the skipped ones', () => {
    expect(tailHash('1abcdefgh', 0)).toBe(tailHash('2abcdefgh', 0));
    expect(tailHash('abcdefgh', 0)).not.toBe(tailHash('abcdefgx', 0));
    expect(tailHash('abcdefgh', 0)).not.toBe(tailHash('xabcdefgh', 0));
    expect(tailHash('ab@one', 4)).toBe(tailHash('ab@two', 4));
    expect(tailHash('ab@one', 4)).not.toBe(tailHash('xb@one', 4));
    expect(tailHash('ab', 5)).toBe(tailHash('cd', 5));
  });
});

describe('sharedSuffixLength', () => {
  it('gives how many characters the sampled strings share at their end', () => {
    expect(sharedSuffixLength(['a@x.com', 'bb@x.com', 'c@x.com'])).toBe(6);
    expect(sharedSuffixLength(['abc'])).toBe(3);
    expect(sharedSuffixLength(['abc', 'bc'])).toBe(2);
    expect(sharedSuffixLength(['bc', 'abc'])).toBe(2);
    expect(sharedSuffixLength(['abc', 'xyz', 'abc'])).toBe(0);
    // Never more than the strings before shared.
    expect(sharedSuffixLength(['abc', 'xbc', 'abc'])).toBe(2);
    expect(sharedSuffixLength(['xbc', 'ybc', 'zc'])).toBe(1);
  });
});

describe('repeatsByHashing', () => {
  // Ten strings alike in their last 8 characters (and the list shares no suffix): one slot for all.
  const colliding = [...Array.from({ length: 10 }, (_, i) => `${i}abcdefghX`), 'Y'];

  it('finds a repeat, and says none when there is none', () => {
    expect(repeatsByHashing(['a', 'b', 'c', 'b'], 8)).toBe(true);
    expect(repeatsByHashing(['a', 'b', 'c', 'd'], 8)).toBe(false);
    expect(repeatsByHashing([...colliding, '7abcdefghX'], 8)).toBe(true);
  });

  it('probes past collisions within its budget and gives up (undefined) past it', () => {
    expect(repeatsByHashing(colliding, 8)).toBe(false);
    expect(repeatsByHashing(colliding, 1)).toBeUndefined();
  });

  /** `count` strings k0, k1… not in `taken` whose tailHash (nothing skipped) is `slot` in a table of `size` slots. */
  function inSlot(slot: number, size: number, count: number, taken: readonly string[] = []): string[] {
    const found: string[] = [];
    for (let i = 0; found.length < count; i++) {
      const value = `k${i}`;
      if ((tailHash(value, 0) & (size - 1)) === slot && !taken.includes(value)) found.push(value);
    }
    return found;
  }

  it('spends its whole budget before it gives up: three strings in one slot take 0 + 1 + 2 probes', () => {
    // Three strings: a table of 8 slots and, at one probe per string, a budget of 3.
    const values = inSlot(3, 8, 3);
    expect(sharedSuffixLength(values)).toBe(0);
    expect(repeatsByHashing(values, 1)).toBe(false);
    expect(repeatsByHashing([...values, values[0] as string], 1)).toBe(true);
  });

  it('uses every slot of its table, the last one included', () => {
    // Four strings in slots 7, 0, 1 and 2 of 8: with no probe to spare, none may collide.
    const values = [7, 0, 1, 2].flatMap((slot) => inSlot(slot, 8, 1));
    expect(sharedSuffixLength(values)).toBe(0);
    expect(repeatsByHashing(values, 0)).toBe(false);
  });

  it('probes forward from a taken slot', () => {
    // Six strings, 16 slots, a budget of 6: four fill slots 8, 7, 6 and 5, two more land in 8.
    // Forward, they take slots 9 and 10 for 1 + 2 probes; backward, slots 4 and 3 for 4 + 5.
    const taken = [8, 7, 6, 5].flatMap((slot) => inSlot(slot, 16, 1));
    const values = [...taken, ...inSlot(8, 16, 2, taken)];
    expect(sharedSuffixLength(values)).toBe(0);
    expect(repeatsByHashing(values, 1)).toBe(false);
  });
});
