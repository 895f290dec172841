/**
 * The first-in first-out ring under the stores' lists (src/store/common/deque.ts) against a
 * plain array: any run of pushes and shifts, long enough for the ring to wrap, double and
 * halve, reads the same through every accessor.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Deque } from '../../src/store/common/deque.js';

/** A burst of pushes or of shifts: runs long enough to grow the ring past its halving size, then empty it. */
const burstArb = fc.record({ push: fc.boolean(), times: fc.integer({ min: 1, max: 90 }), set: fc.nat() });

function expectSame(deque: Deque<number>, model: readonly number[]): void {
  expect(deque.length).toBe(model.length);
  for (let i = -1; i <= model.length; i++) expect(deque.at(i)).toBe(model[i]);
  expect([...deque]).toEqual(model);
  expect([...deque.reversed()]).toEqual([...model].reverse());
  expect(deque.toArray()).toEqual(model);
}

describe('Deque', () => {
  it('reads as an array does through any pushes and shifts', () => {
    fc.assert(
      fc.property(fc.array(burstArb, { maxLength: 30 }), (bursts) => {
        const deque = new Deque<number>();
        const model: number[] = [];
        let next = 0;
        for (const { push, times, set } of bursts) {
          for (let i = 0; i < times; i++) {
            if (push) {
              deque.push(next);
              model.push(next++);
            } else expect(deque.shift()).toBe(model.shift());
          }
          // One item replaced in place (the delivery log seals its entries so), wherever the ring has it.
          if (model.length > 0) {
            const at = set % model.length;
            deque.set(at, -next);
            model[at] = -next;
          }
          expectSame(deque, model);
        }
      }),
    );
  });

  it('keeps its order across many wraps of a log at its cap', () => {
    const deque = new Deque<string>();
    for (let i = 0; i < 100; i++) deque.push(`r${i}`);
    for (let i = 100; i < 10_000; i++) {
      deque.push(`r${i}`);
      expect(deque.shift()).toBe(`r${i - 100}`);
    }
    expect(deque.length).toBe(100);
    expect(deque.at(0)).toBe('r9900');
    expect(deque.at(99)).toBe('r9999');
  });

  it('refuses to set an item it does not hold', () => {
    const deque = new Deque<number>();
    deque.push(1);
    expect(() => deque.set(1, 2)).toThrow(RangeError);
    expect(() => deque.set(-1, 2)).toThrow(RangeError);
    expect(deque.toArray()).toEqual([1]);
  });

  it('answers an empty list with nothing', () => {
    const deque = new Deque<number>();
    expect(deque.shift()).toBeUndefined();
    expect(deque.at(0)).toBeUndefined();
    expect(deque.toArray()).toEqual([]);
    deque.push(1);
    deque.shift();
    expect(deque.shift()).toBeUndefined();
    expect(deque.length).toBe(0);
  });
});
