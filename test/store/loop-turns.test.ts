/**
 * The store's turns on the event loop (src/platform/loop-turns.ts): background slices run in the
 * order they were asked for, one per turn, so a timer or a socket waits for one slice at most,
 * not for every slice under way.
 */
import { describe, expect, it } from 'vitest';
import { LoopTurns } from '../../src/platform/loop-turns.js';
import { pageInSlices } from '../../src/store/sliced-search.js';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('LoopTurns', () => {
  it('runs tasks in the order asked, each on a later turn', async () => {
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

  it('lets a due timer in between two tasks, where one immediate per task would run them all first', async () => {
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
    expect(await count(new LoopTurns().later)).toBe(1);
  });

  it('shares its turns among searches under way at once: one slice per turn between them', async () => {
    const turns = new LoopTurns();
    const values = Array.from({ length: 4096 }, (_, i) => i);
    let slices = 0;
    let ticks = 0;
    let searching = true;
    const tick = (): void => {
      ticks++;
      if (searching) setImmediate(tick);
    };
    setImmediate(tick);
    const matches = (v: number) => {
      if (v % 64 === 0) slices++;
      return v % 2 === 0;
    };
    const pages = await Promise.all(
      Array.from({ length: 5 }, () =>
        pageInSlices(values, matches, { offset: 0, limit: 3, order: 'asc' }, { sliceMs: 0, turns }),
      ),
    );
    searching = false;
    expect(pages.map((p) => p.total)).toEqual([2048, 2048, 2048, 2048, 2048]);
    // Every 64 candidates a slice ends (sliceMs 0): 5 searches x 64 slices, one per turn.
    expect(slices).toBe(5 * 64);
    expect(ticks).toBeGreaterThanOrEqual(5 * 63);
  });
});
