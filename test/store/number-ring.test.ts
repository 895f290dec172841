/**
 * The ring of numbers under the indexes (src/store/common/number-ring.ts) against a plain
 * array: any run of pushes and shifts, long enough to wrap, double and halve the ring, finds
 * the same items by indexOf as the array does, from every starting point.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uint32Ring } from '../../src/store/common/number-ring.js';

/** A burst of pushes or of shifts: runs long enough to grow the ring past its halving size, then empty it. */
const burstArb = fc.record({ push: fc.boolean(), times: fc.integer({ min: 1, max: 90 }) });

describe('NumberRing', () => {
  it('finds items by indexOf as an array does, through any pushes and shifts', () => {
    fc.assert(
      fc.property(fc.array(burstArb, { maxLength: 20 }), fc.integer({ min: 2, max: 7 }), (bursts, values) => {
        const ring = uint32Ring();
        const model: number[] = [];
        let next = 0;
        for (const { push, times } of bursts) {
          for (let i = 0; i < times; i++) {
            if (push) {
              // Few distinct values, so that each is found many times and in the stale slots too.
              ring.push(next % values);
              model.push(next++ % values);
            } else {
              ring.shift();
              model.shift();
            }
          }
          expect(ring.toArray()).toEqual(model);
          for (let value = 0; value <= values; value++)
            for (let from = -1; from <= model.length + 1; from += 3)
              expect(ring.indexOf(value, from)).toBe(model.indexOf(value, Math.max(0, from)));
        }
      }),
      { numRuns: 200 },
    );
  });
});
