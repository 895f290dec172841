/**
 * The paged typed array (src/store/common/paged-array.ts) against a plain array: values set
 * anywhere below what was reserved read back, past its first page's doubling and into pages
 * added whole, and room reserved later reads 0.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PagedArray } from '../../src/store/common/paged-array.js';

type Op = { kind: 'reserve'; length: number } | { kind: 'set'; at: number; value: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('reserve' as const), length: fc.integer({ min: 0, max: 70_000 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.nat(2 ** 32 - 1) }),
);

describe('PagedArray', () => {
  it('reads back what was set, and 0 where nothing was, as the room reserved grows', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const paged = new PagedArray((size) => new Uint32Array(size));
        const model: number[] = [];
        let room = 0;
        for (const op of ops) {
          if (op.kind === 'reserve') {
            paged.reserve(op.length);
            room = Math.max(room, op.length);
          } else if (room > 0) {
            paged.set(op.at % room, op.value);
            model[op.at % room] = op.value;
          }
        }
        for (let i = 0; i < room; i += 97) expect(paged.get(i)).toBe(model[i] ?? 0);
        for (const i of model.keys()) expect(paged.get(i)).toBe(model[i] ?? 0);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps Float64 values whole across pages', () => {
    const paged = new PagedArray((size) => new Float64Array(size));
    paged.reserve(40_000);
    paged.set(39_999, 2 ** 40 + 0.5);
    paged.set(16_384, -1);
    expect([paged.get(39_999), paged.get(16_384), paged.get(16_383)]).toEqual([2 ** 40 + 0.5, -1, 0]);
  });
});
