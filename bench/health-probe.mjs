/* global fetch */
// Run as its own process by the soak metric: asks GET <url> every 20 ms until stdin closes,
// then prints the latencies (ms) as JSON. Apart from the load generator, whose own event loop
// is busy with 1,000 connections (its delay reached ~56 ms at p99, would otherwise be counted
// as the emulator's), so the figure is how long the emulator took to answer.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const url = process.argv[2];
const latencies = [];
let running = true;
process.stdin.on('end', () => (running = false)).resume();
while (running) {
  const started = performance.now();
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
  } catch {
    latencies.push(Number.POSITIVE_INFINITY);
  }
  await sleep(20);
}
process.stdout.write(JSON.stringify(latencies.map((ms) => (Number.isFinite(ms) ? ms : null))));
