/**
 * clock.nowIso() (its text cached per millisecond, its first 20 characters per second)
 * against Date#toISOString, at any instant the clock can be set to, and across advances that
 * stay in or leave the cached second; and the clock's own refusal of instants a Date cannot
 * hold.
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

  it('gives records of one millisecond one string, and a new one after a set back or forth', () => {
    const clock = new EmulatorClock('2030-01-01T00:00:00.000Z');
    const first = clock.nowIso();
    expect(clock.nowIso()).toBe(first);
    clock.set('2029-12-31T23:59:59.999Z');
    expect(clock.nowIso()).toBe('2029-12-31T23:59:59.999Z');
    clock.set('2030-01-01T00:00:00.000Z');
    expect(clock.nowIso()).toBe(first);
    clock.advance(1);
    expect(clock.nowIso()).toBe('2030-01-01T00:00:00.001Z');
  });

  it('follows real time', () => {
    const clock = new EmulatorClock();
    const before = Date.now();
    const iso = Date.parse(clock.nowIso());
    expect(iso).toBeGreaterThanOrEqual(before);
    expect(iso).toBeLessThanOrEqual(Date.now());
  });
});

describe('EmulatorClock used directly (a test that passes its own clock)', () => {
  it('refuses an instant a Date cannot hold, from the start, set and advance, and keeps its time', () => {
    expect(() => new EmulatorClock(MAX_DATE_MS + 1)).toThrow(RangeError);
    const clock = new EmulatorClock('2030-01-01T00:00:00.000Z');
    expect(() => clock.set('not a date')).toThrow(/clock: NaN is not a valid instant/);
    expect(() => clock.set(MAX_DATE_MS + 1)).toThrow(/not a valid instant/);
    expect(() => clock.advance(MAX_DATE_MS)).toThrow(/latest instant/);
    expect(clock.nowIso()).toBe('2030-01-01T00:00:00.000Z');
    clock.set(MAX_DATE_MS);
    expect(clock.nowIso()).toBe('+275760-09-13T00:00:00.000Z');
  });
});
