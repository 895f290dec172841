/**
 * The instants the emulator clock can stand at (src/domain/instants.ts): what a Date holds,
 * both ends included, and a reason naming the bound for anything past it.
 */
import { describe, expect, it } from 'vitest';
import { EARLIEST_INSTANT_MS, LATEST_INSTANT_MS, instantProblem } from '../../src/domain/instants.js';

describe('instantProblem', () => {
  it('accepts every instant a Date holds, both ends included', () => {
    for (const ms of [0, -1, Date.UTC(2030, 0, 1), LATEST_INSTANT_MS, EARLIEST_INSTANT_MS]) {
      expect(instantProblem(ms)).toBeNull();
      expect(Number.isNaN(new Date(ms).getTime())).toBe(false);
    }
  });

  it('names the bound an instant lies past', () => {
    expect(instantProblem(LATEST_INSTANT_MS + 1)).toBe(
      'is after +275760-09-13T00:00:00.000Z, the latest instant a date can hold (8.64e15 ms)',
    );
    expect(instantProblem(EARLIEST_INSTANT_MS - 1)).toBe(
      'is before -271821-04-20T00:00:00.000Z, the earliest instant a date can hold (-8.64e15 ms)',
    );
    expect(new Date(LATEST_INSTANT_MS).toISOString()).toBe('+275760-09-13T00:00:00.000Z');
    expect(new Date(EARLIEST_INSTANT_MS).toISOString()).toBe('-271821-04-20T00:00:00.000Z');
  });

  it.each([Number.NaN, Infinity, -Infinity])('refuses %d as no instant at all', (ms) => {
    expect(instantProblem(ms)).toBe('is not a valid instant');
  });
});
