/** The stream's bounded queue (src/inspect/event-queue.ts). */
import { describe, expect, it } from 'vitest';
import { createEventQueue } from '../../src/inspect/event-queue.js';

describe('createEventQueue', () => {
  it('hands items out in order and counts the ones past its bound as dropped', () => {
    const queue = createEventQueue<number>(3);
    for (let i = 1; i <= 5; i++) queue.push(i);
    expect(queue.size).toBe(3);
    expect(queue.takeDropped()).toBe(2);
    expect(queue.takeDropped()).toBe(0);
    expect([queue.take(), queue.take()]).toEqual([1, 2]);
    queue.push(6);
    expect([queue.take(), queue.take(), queue.take()]).toEqual([3, 6, undefined]);
  });

  it('keeps order across many takes (the compaction of taken slots)', () => {
    const queue = createEventQueue<number>(10_000);
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) {
      queue.push(i);
      queue.push(-i);
      out.push(queue.take()!);
    }
    while (queue.size > 0) out.push(queue.take()!);
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => [i, -i]).flat());
  });

  it('wakes a waiting reader on push and on close, and ignores pushes once closed', async () => {
    const queue = createEventQueue<string>(2);
    const ready = queue.whenReady();
    queue.push('a');
    await ready;
    expect(queue.take()).toBe('a');
    const closed = queue.whenReady();
    queue.close();
    await closed;
    queue.push('b');
    expect([queue.closed, queue.size]).toEqual([true, 0]);
    await queue.whenReady(); // resolves at once once closed
  });
});
