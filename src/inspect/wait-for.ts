/**
 * Long-poll support: resolves once `count()` reaches `n` (re-checked after matching
 * events), when `timeoutMs` of real time passes, or as not reached when `signal` aborts
 * (the client hung up: nobody is left to answer, and the wait must not keep listening).
 */
import type { EmulatorEvent, Events } from '../domain/ports.js';

export function waitForCount(
  events: Events,
  relevant: (event: EmulatorEvent) => boolean,
  count: () => number,
  n: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  if (count() >= n) return Promise.resolve(true);
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    let checkQueued = false;
    const finish = (reached: boolean) => {
      unsubscribe();
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(reached);
    };
    const onAbort = () => finish(false);
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
    // A subscriber left behind would also make every send build event payloads for nobody.
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
