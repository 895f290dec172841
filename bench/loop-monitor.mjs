// Preloaded into the emulator child by the bench (node --import): records event-loop delay
// and writes the longest delay so far (ms) to $BENCH_LOOP_FILE once a second and at exit.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const started = Date.now();
  /** Longest delay per second of the run, so a reader can cut a window. */
  const perSecond = [];
  const write = () => {
    perSecond.push(histogram.max / 1e6);
    histogram.reset();
    writeFileSync(file, JSON.stringify({ startedAt: started, perSecondMaxMs: perSecond }));
  };
  setInterval(write, 1000).unref();
  process.on('exit', write);
}
