/**
 * The queue that seals packed blocks on later turns (src/store/common/seal-queue.ts): an item that
 * stops midway is asked again on a later turn until it is done, and past `maxWaiting` the
 * oldest waiting item is sealed at once, whole, so a producer faster than the slices cannot
 * pile records up unsealed. While more than one item waits, a slice runs longer.
 */
import { describe, expect, it } from 'vitest';
import { SealQueue } from '../../src/store/common/seal-queue.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A sealable that needs `steps` steps of `stepMs` each, taking one per ask of `spent` that does not say stop. */
function item(steps: number, stepMs = 0) {
  const record = {
    done: 0,
    calls: 0,
    seal(spent: () => boolean): boolean {
      record.calls++;
      while (record.done < steps) {
        if (spent()) return false;
        const end = performance.now() + stepMs;
        while (performance.now() < end);
        record.done++;
      }
      return true;
    },
  };
  return record;
}

describe('SealQueue', () => {
  it('seals on later turns, going on with an item where its last slice stopped', async () => {
    const queue = new SealQueue();
    // 2 ms steps: a slice (10 ms while both wait) holds up to five of them, short of a's six.
    const a = item(6, 2);
    const b = item(2, 2);
    queue.add(a);
    queue.add(b);
    expect([a.calls, b.calls]).toEqual([0, 0]);
    await tick();
    expect(a.done).toBeLessThan(6);
    for (let turn = 0; turn < 1000 && b.done < 2; turn++) await tick();
    expect([a.done, b.done]).toEqual([6, 2]);
    expect(a.calls).toBeGreaterThan(1);
    const calls = a.calls + b.calls;
    await tick();
    expect(a.calls + b.calls).toBe(calls);
  });

  it('seals the oldest waiting item at once, whole, when one more than maxWaiting wait', () => {
    const queue = new SealQueue(2);
    const [a, b, c, d] = [item(500), item(500), item(500), item(500)];
    queue.add(a);
    queue.add(b);
    expect([a.done, b.done]).toEqual([0, 0]);
    queue.add(c);
    expect([a.done, b.done, c.done]).toEqual([500, 0, 0]);
    queue.delete(b);
    queue.add(d);
    expect([b.done, c.done, d.done]).toEqual([0, 0, 0]);
  });

  it('runs a slice longer while more than one item waits (a producer outpacing it)', async () => {
    /** Whether the first slice of the item asked first still has time 5 ms after it began (past 4 ms, short of 10). */
    const timeLeftAt5ms = async (waiting: number): Promise<boolean> => {
      const queue = new SealQueue();
      let left: boolean | undefined;
      const probe = {
        seal(spent: () => boolean): boolean {
          const began = performance.now();
          while (performance.now() - began < 5);
          left ??= !spent();
          return true;
        },
      };
      queue.add(probe);
      for (let i = 1; i < waiting; i++) queue.add(item(1));
      for (let turn = 0; turn < 100 && left === undefined; turn++) await tick();
      return left!;
    };
    expect(await timeLeftAt5ms(1)).toBe(false);
    // A slice's deadline is set just before its first item is asked: a pause of the process in
    // between (another process on the core, a collection) shortens what the item sees of it.
    // Asked up to three times, a 10 ms slice shows; a 4 ms one never would.
    let longer = false;
    for (let attempt = 0; attempt < 3 && !longer; attempt++) longer = await timeLeftAt5ms(2);
    expect(longer).toBe(true);
  });
});
