// Preloaded into the emulator child by the bench (node --import). Records, once a second (`at`,
// ms since the epoch, when the second ended),
// the longest event-loop delay (perf_hooks histogram) and the longest gap between two ticks
// of a 5 ms timer together with the process CPU time spent inside that gap. On a shared,
// overloaded machine a wall-clock gap also counts time the process waited for a core; the
// CPU time inside the gap is what the emulator's own work held the loop for (an upper
// bound: it includes the GC's helper threads), and the longest collection pause. Written to
// $BENCH_LOOP_FILE as JSON, with the wall-clock window of each collection the bench forced, so
// the soak can leave its pause out, and the emulator's own time for each request the bench
// marked with an x-bench-call header: from its headers parsed to its last byte handed to the
// socket, as this HTTP server saw it (the client's round trip adds its own process's turns).
import diagnosticsChannel from 'node:diagnostics_channel';
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const seconds = [];
  /** [start, end] in ms since the epoch (performance.timeOrigin based, as the probe's). */
  const forcedGcs = [];
  const epochNow = () => performance.timeOrigin + performance.now();
  let gapMax = 0;
  let cpuInGapMax = 0;
  let gcMax = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.duration > gcMax) gcMax = entry.duration;
  }).observe({ entryTypes: ['gc'] });
  /** x-bench-call → ms, for the requests the bench marked. */
  const answers = {};
  const started = new WeakMap();
  diagnosticsChannel.subscribe('http.server.request.start', ({ request }) => {
    if (request.headers['x-bench-call'] !== undefined) started.set(request, performance.now());
  });
  diagnosticsChannel.subscribe('http.server.response.finish', ({ request }) => {
    const start = started.get(request);
    if (start !== undefined) answers[request.headers['x-bench-call']] = performance.now() - start;
  });
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const at = performance.now();
    const cpu = process.cpuUsage();
    const gap = at - last;
    const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    if (gap > gapMax) gapMax = gap;
    if (cpuMs > cpuInGapMax) cpuInGapMax = cpuMs;
    last = at;
    lastCpu = cpu;
  }, 5).unref();
  // SIGUSR2 from the bench: at the next second, collect garbage and note the live heap (needs --expose-gc).
  let gcRequested = false;
  process.on('SIGUSR2', () => (gcRequested = true));
  const write = () => {
    let liveHeapMb = null;
    if (gcRequested && typeof globalThis.gc === 'function') {
      gcRequested = false;
      const start = epochNow();
      globalThis.gc();
      forcedGcs.push([start, epochNow()]);
      liveHeapMb = process.memoryUsage().heapUsed / 1048576;
    }
    const memory = process.memoryUsage();
    seconds.push({
      at: epochNow(),
      delayMaxMs: histogram.max / 1e6,
      gapMaxMs: gapMax,
      cpuInGapMaxMs: cpuInGapMax,
      gcMaxMs: gcMax,
      heapUsedMb: memory.heapUsed / 1048576,
      rssMb: memory.rss / 1048576,
      liveHeapMb,
    });
    histogram.reset();
    gapMax = cpuInGapMax = gcMax = 0;
    // Whole or not at all: the bench reads the file while this process goes on writing it.
    writeFileSync(`${file}.tmp`, JSON.stringify({ seconds, forcedGcs, answers }));
    renameSync(`${file}.tmp`, file);
  };
  setInterval(write, 1000).unref();
  process.on('exit', write);
}
