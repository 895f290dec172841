/**
 * A scheduled callback on the real clock fires even when Node's timer comes due before
 * Date.now() reaches the instant: timers run on the monotonic clock, whose milliseconds do
 * not tick in step with the wall clock's, so a timer may fire up to a millisecond "early".
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmulatorClock } from '../../src/platform/clock.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('EmulatorClock.schedule in real time', () => {
  it('fires a callback whose timer comes due while the wall clock is still short of its instant', async () => {
    const clock = new EmulatorClock();
    try {
      const at = Date.now() + 20;
      const fired = new Promise<number>((resolve) => clock.schedule(at, () => resolve(Date.now())));
      // From here the wall clock reads 5 ms behind the timers' clock.
      const realNow = Date.now.bind(Date);
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() - 5);
      const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('never fired'), 1000));
      const firedAt = await Promise.race([fired, timeout]);
      expect(firedAt).toBeTypeOf('number');
      expect(firedAt as number).toBeGreaterThanOrEqual(at);
    } finally {
      clock.close();
    }
  });
});
