/* global fetch */
// Run as its own process by the soak, burst and trace metrics: prints "ready" once warm, then
// asks GET <url> every <ms> (argv[3], default 20) until stdin closes, then prints
// [start, latency] pairs as JSON: start in ms since the epoch (performance.timeOrigin based, as
// bench/loop-monitor.mjs notes the collections it forces), latency in ms or null.
// Apart from the load generator, whose own event loop is busy with 1,000 connections (its delay
// reached ~56 ms at p99, would otherwise be counted as the emulator's), so the figure is how
// long the emulator took to answer.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const url = process.argv[2];
const interval = Number(process.argv[3] ?? 20);
const probes = [];
let running = true;
process.stdin.on('end', () => (running = false)).resume();
// The first fetch() of a process loads the HTTP client (~80 ms whatever the server): made
// untimed, before the bench is told the probe is ready.
await fetch(url)
  .then((res) => res.arrayBuffer())
  .catch(() => undefined);
process.stdout.write('ready\n');
while (running) {
  const started = performance.now();
  const start = performance.timeOrigin + started;
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    probes.push([start, performance.now() - started]);
  } catch (error) {
    if (!probes.some(([, ms]) => ms === null)) process.stderr.write(`health probe: ${error.cause ?? error}\n`);
    probes.push([start, null]);
  }
  await sleep(interval);
}
process.stdout.write(JSON.stringify(probes));
