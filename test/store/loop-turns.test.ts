/**
 * The store's turns on the event loop (src/platform/loop-turns.ts): tasks run in the order
 * they were asked for, a few milliseconds of them per turn, so a timer or a socket waits for
 * one turn at most, not for every slice under way; searches under way take turns slice by slice.
 */
import { describe, expect, it } from 'vitest';
import { LoopTurns } from '../../src/platform/loop-turns.js';
import { pageInSlices } from '../../src/store/common/sliced-search.js';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('LoopTurns', () => {
  it('runs tasks in the order asked, on a later turn', async () => {
    const turns = new LoopTurns();
    const ran: string[] = [];
    turns.later(() => ran.push('a'));
    turns.later(() => {
      ran.push('b');
      turns.later(() => ran.push('d'));
    });
    turns.later(() => ran.push('c'));
    expect(ran).toEqual([]);
    await turns.next();
    expect(ran).toEqual(['a', 'b', 'c']);
    await turns.next();
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
  });

  it('lets a due timer in after a turn of a few ms; one immediate per task runs them all first', async () => {
    /** How many of 20 tasks of 2 ms ran before a timer the first of them set (due before it ends). */
    const count = async (queue: (task: () => void) => void) => {
      let ran = 0;
      let beforeTimer = -1;
      let timer: Promise<void> | undefined;
      for (let i = 0; i < 20; i++)
        queue(() => {
          timer ??= new Promise<void>((resolve) =>
            setTimeout(() => {
              beforeTimer = ran;
              resolve();
            }, 1),
          );
          busy(2);
          ran++;
        });
      while (ran < 20) await new Promise((resolve) => setImmediate(resolve));
      await timer;
      return beforeTimer;
    };
    expect(await count((task) => setImmediate(task))).toBe(20);
    // A turn runs 4 ms of tasks: two of 2 ms, or fewer when the machine is slow.
    expect(await count(new LoopTurns().later)).toBeLessThanOrEqual(2);
  });

  it('shares its turns among searches under way at once, slice by slice in the order they asked', async () => {
    const turns = new LoopTurns();
    const values = Array.from({ length: 4096 }, (_, i) => i);
    const slices: number[] = [];
    const pages = await Promise.all(
      Array.from({ length: 5 }, (_, search) =>
        pageInSlices(
          values,
          (v) => {
            if (v % 64 === 0) slices.push(search);
            return v % 2 === 0;
          },
          { offset: 0, limit: 3, order: 'asc' },
          { sliceMs: 0, turns },
        ),
      ),
    );
    expect(pages.map((p) => p.total)).toEqual([2048, 2048, 2048, 2048, 2048]);
    // Every 64 candidates a slice ends (sliceMs 0): 5 searches x 64 slices, round robin.
    expect(slices).toEqual(Array.from({ length: 5 * 64 }, (_, i) => i % 5));
  });
});
