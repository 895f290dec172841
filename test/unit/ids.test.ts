/**
 * ObjectId-shaped ids: reserving a range (objectIds) names the same ids, in the same order,
 * as asking one by one; the 3-byte counter wraps; ids follow the emulator clock's seconds.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createIds, createRandom } from '../../src/platform/random.js';
import { EmulatorClock } from '../../src/platform/clock.js';

const twins = (seed: number) => {
  const clock = new EmulatorClock('2030-01-01T00:00:00.000Z');
  return { clock, ranged: createIds(clock, createRandom(seed)), single: createIds(clock, createRandom(seed)) };
};

describe('ids', () => {
  it('objectIds(n) names what n objectId() calls would, and later ids go on after the range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 5 }),
        (seed, counts) => {
          const { ranged, single } = twins(seed);
          for (const count of counts) {
            const range = ranged.objectIds(count);
            const expected = Array.from({ length: count }, () => single.objectId());
            expect(Array.from({ length: count }, (_, i) => range.at(i))).toEqual(expected);
          }
          expect(ranged.objectId()).toBe(single.objectId());
        },
      ),
      { seed: 20261123 },
    );
  });

  it('finds each id of a range at its index, across the counter wrap, and no id of another range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 0xffffff - 1 }), // the ids just before and after stay outside
        fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
        (seed, count, picks) => {
          const { clock, ranged } = twins(seed);
          const before = ranged.objectId();
          const range = ranged.objectIds(count);
          const after = ranged.objectId();
          for (const pick of [0, count - 1, ...picks.map((p) => p % count)])
            expect(range.indexOf(range.at(pick))).toBe(pick);
          clock.advance(1000); // a later second: the same counters under another prefix
          const later = ranged.objectIds(count);
          for (const id of [
            before,
            after,
            later.at(0),
            later.at(count - 1),
            before.toUpperCase(),
            `${before}0`,
            'x'.repeat(24),
          ])
            expect(range.indexOf(id), id).toBe(-1);
        },
      ),
      { seed: 20261126, numRuns: 50 },
    );
  });

  it('gives 24 lowercase hex characters whose first 8 are the clock seconds, and never repeats within a range', () => {
    const { clock, ranged } = twins(7);
    const range = ranged.objectIds(0x1000000); // the whole counter space: wraps once
    const ids = new Set([0, 1, 0xffffff - 1, 0xffffff].map((i) => range.at(i)));
    expect(ids.size).toBe(4);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      expect(Number.parseInt(id.slice(0, 8), 16)).toBe(Math.floor(clock.now() / 1000));
    }
  });
});
