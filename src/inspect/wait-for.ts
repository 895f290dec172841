/**
 * Long-poll support: resolves once `count()` reaches `n` (re-checked after matching
 * events) or when `timeoutMs` of real time passes.
 */
import type { EmulatorEvent, Events } from '../domain/ports.js';

export function waitForCount(
  events: Events,
  relevant: (event: EmulatorEvent) => boolean,
  count: () => number,
  n: number,
  timeoutMs: number,
): Promise<boolean> {
  if (count() >= n) return Promise.resolve(true);
  return new Promise((resolve) => {
    let checkQueued = false;
    const finish = (reached: boolean) => {
      unsubscribe();
      clearTimeout(timer);
      resolve(reached);
    };
    const unsubscribe = events.subscribe((event) => {
      if (checkQueued || !relevant(event)) return;
      // A batch emits thousands of events in one turn: count once after it.
      checkQueued = true;
      setImmediate(() => {
        checkQueued = false;
        if (count() >= n) finish(true);
      });
    });
    const timer = setTimeout(() => finish(count() >= n), timeoutMs);
  });
}
