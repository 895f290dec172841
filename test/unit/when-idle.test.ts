/**
 * Work deferred until the event loop is idle (src/platform/when-idle.ts): it waits while the
 * loop is busy, runs once after an idle interval, and not at all once cancelled.
 */
import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { whenIdle } from '../../src/platform/when-idle.js';

/** Keeps the loop busy for `ms`: blocks of 8 ms with a turn between them, as steady traffic would. */
async function busyFor(ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const block = performance.now() + 8;
    while (performance.now() < block);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('whenIdle', () => {
  it('waits while the loop is busy and runs the task once after an idle interval', async () => {
    let runs = 0;
    whenIdle(() => runs++, { everyMs: 40 });
    await busyFor(300);
    expect(runs).toBe(0);
    // Idle: a few intervals' time, with room for a shared machine.
    for (let waited = 0; runs === 0 && waited < 2000; waited += 50) await sleep(50);
    expect(runs).toBe(1);
    await sleep(150);
    expect(runs).toBe(1);
  });

  it('never runs a task cancelled before the loop was idle', async () => {
    let runs = 0;
    const cancel = whenIdle(() => runs++, { everyMs: 40 });
    cancel();
    await sleep(200);
    expect(runs).toBe(0);
  });
});
