/**
 * clock.nowIso() (cached per second) against Date#toISOString, at any instant the clock can
 * be set to, and across advances that stay in or leave the cached second.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EmulatorClock } from '../../src/platform/clock.js';

const MAX_DATE_MS = 8.64e15;

describe('EmulatorClock.nowIso', () => {
  it('is toISOString of now() at any instant, years before 1970 and after 9999 included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_DATE_MS, max: MAX_DATE_MS - 20_000 }),
        fc.array(fc.integer({ min: 0, max: 2500 }), { maxLength: 6 }),
        (start, steps) => {
          const clock = new EmulatorClock(start);
          expect(clock.nowIso()).toBe(new Date(start).toISOString());
          for (const step of steps) {
            clock.advance(step);
            expect(clock.nowIso()).toBe(new Date(clock.now()).toISOString());
          }
        },
      ),
      {
        numRuns: 1000,
        seed: 20261123,
        examples: [
          [253402300799998, [1, 1]],
          [-1001, [1, 1000]],
          [0, [999, 1]],
        ],
      },
    );
  });

  it('follows real time', () => {
    const clock = new EmulatorClock();
    const before = Date.now();
    const iso = Date.parse(clock.nowIso());
    expect(iso).toBeGreaterThanOrEqual(before);
    expect(iso).toBeLessThanOrEqual(Date.now());
  });
});
