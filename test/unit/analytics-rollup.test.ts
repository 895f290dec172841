/**
 * The rollup's count, against the plain reading of the range: an event counts when its instant
 * is neither before `from` nor after `to`, whatever offset the bounds are written in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rollup } from '../../src/domain/analytics-rollup.js';
import type { AnalyticsEvent } from '../../src/schemas/analytics.js';
import { ApiError } from '../../src/domain/errors.js';

const START = Date.UTC(2030, 0, 1);
const DAY = 86_400_000;

const eventAt = (ms: number, i: number): AnalyticsEvent => ({
  id: `evt_${i}`,
  appId: 'a',
  campaignId: 'c',
  userId: `u${i}`,
  channelType: 'in_app',
  eventType: 'viewed',
  createdAt: new Date(ms).toISOString(),
});

/** The instant written with a whole-minute offset from UTC (−14:00 to +14:00), as a client might. */
function withOffset(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

describe('rollup', () => {
  it('counts the events from `from` to `to`, both included, and answers the bounds in UTC', () => {
    const instant = fc.integer({ min: START, max: START + DAY });
    const offset = fc.integer({ min: -14 * 60, max: 14 * 60 });
    fc.assert(
      fc.property(fc.array(instant, { maxLength: 40 }), instant, instant, offset, offset, (times, a, b, oa, ob) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const events = times.map(eventAt);
        const answer = rollup(events, { from: withOffset(from, oa), to: withOffset(to, ob) });
        expect(answer).toEqual({
          success: true,
          from: new Date(from).toISOString(),
          to: new Date(to).toISOString(),
          eventsProcessed: times.filter((t) => t >= from && t <= to).length,
        });
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });

  it('refuses a `from` after `to` by a millisecond, naming `from`', () => {
    const refusal = (() => {
      try {
        rollup([], { from: '2030-01-01T00:00:00.001Z', to: '2030-01-01T00:00:00.000Z' });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).details).toEqual({ from: 'must not be after "to"' });
  });
});
