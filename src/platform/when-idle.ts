/**
 * Runs a task once the event loop has been idle for a whole interval: its utilisation over
 * the last `everyMs` under `utilization` (perf_hooks' eventLoopUtilization, no hook on the
 * request path). For work nothing waits for yet but someone will (loading a module ahead of
 * its first use): at a fixed time after start it landed in the middle of whatever a user had
 * started by then (an upload begun at once waited ~50 ms for it). The timer is unref'd: a
 * process with nothing else to do does not wait for it. Answers a function that cancels it.
 */
import { performance } from 'node:perf_hooks';

export function whenIdle(
  task: () => void,
  { everyMs = 250, utilization = 0.05 }: { everyMs?: number; utilization?: number } = {},
): () => void {
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy >= utilization) return;
    clearInterval(timer);
    task();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
