/**
 * Traces at 1,000,000 deliveries: GET /__export streamed to a file (time, the emulator's RSS
 * before and at its highest during the export, and the /__health latency meanwhile, probed
 * every 20 ms from its own process), then `--import` of that file in a fresh emulator (time
 * to listening, peak RSS). On a shared box a probe that waits for a core is counted as the
 * emulator's latency: the load average is noted, and the emulator's longest hold of its event
 * loop in CPU time (bench/loop-monitor.mjs) is reported beside it.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { now, percentile, rssOf, sleep, startEmulatorChild, startHealthProbe } from '../util.js';
import { fillDeliveries } from './store-scale.js';
import { fmt, type Row } from './types.js';

/** What bench/loop-monitor.mjs has written so far: one entry per second. */
function loopSeconds(file: string): { cpuInGapMaxMs: number }[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { seconds: { cpuInGapMaxMs: number }[] }).seconds;
}

export async function traceScale(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-trace-'));
  const file = join(dir, 'trace.json');
  try {
    const loopFile = join(dir, 'loop.json');
    process.env.BENCH_LOOP_FILE = loopFile;
    const source = await startEmulatorChild([], ['--import', './bench/loop-monitor.mjs']);
    delete process.env.BENCH_LOOP_FILE;
    let exportMs: number;
    let cpuHeldMs: number;
    let exportPeakMb: number;
    let health: number[];
    let before: number;
    let load: number;
    try {
      await fillDeliveries(source, 1_000_000);
      before = rssOf(source.pid).rssMb;
      const secondsBefore = loopSeconds(loopFile).length;
      const probe = await startHealthProbe(`${source.url}/__health`);
      // The export's own high-water mark: VmHWM would be the fill's.
      let highest = before;
      const sampler = setInterval(() => (highest = Math.max(highest, rssOf(source.pid).rssMb)), 50);
      const started = now();
      const res = await fetch(`${source.url}/__export`);
      await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
      exportMs = now() - started;
      clearInterval(sampler);
      health = (await probe.stop()).map((p) => p.ms);
      exportPeakMb = Math.max(highest, rssOf(source.pid).rssMb);
      load = loadavg()[0]!;
      await sleep(1100); // the monitor's second that holds the export's end
      cpuHeldMs = Math.max(
        ...loopSeconds(loopFile)
          .slice(secondsBefore)
          .map((s) => s.cpuInGapMaxMs),
      );
    } finally {
      await source.stop();
    }
    const sizeMb = statSync(file).size / 1024 / 1024;
    // A million records read and checked before the first request: minutes allowed, the time reported.
    const imported = await startEmulatorChild(['--import', file], [], 300_000);
    const importPeakMb = rssOf(imported.pid).peakMb;
    const deliveries = ((await (await fetch(`${imported.url}/__health`)).json()) as { deliveries: number }).deliveries;
    await imported.stop();
    if (deliveries !== 1_000_000) throw new Error(`import: expected 1,000,000 deliveries, got ${deliveries}`);
    const worst = Math.max(...health);
    return [
      {
        metric: 'GET /__export of 1M deliveries',
        value: `${fmt(exportMs / 1000, 1)} s`,
        baseline: '-',
        ratio: '-',
        target: 'reported',
        pass: true,
        note: `${fmt(sizeMb, 0)} MB written; RSS ${fmt(before, 0)} MB before, ${fmt(exportPeakMb, 0)} MB at most`,
      },
      {
        metric: '/__health during the export (max)',
        value: `${fmt(worst, 1)} ms`,
        baseline: '-',
        ratio: '-',
        target: '<= 100 ms',
        pass: worst <= 100,
        note:
          `${health.length} probes, p50 ${fmt(percentile(health, 50), 1)} ms, ` +
          `p99 ${fmt(percentile(health, 99), 1)} ms; ` +
          `load average ${fmt(load, 1)} on ${cpus().length} cores`,
      },
      {
        metric: 'longest event-loop block in CPU time, same export',
        value: `${fmt(cpuHeldMs, 0)} ms`,
        baseline: '-',
        ratio: '-',
        target: '<= 100 ms',
        pass: cpuHeldMs <= 100,
        note:
          'process CPU time inside the longest gap between two ticks of a 5 ms timer (bench/loop-monitor.mjs): ' +
          "the emulator's own work, GC threads included, without the waits for a core",
      },
      {
        metric: '--import of 1M deliveries (start to listening)',
        value: `${fmt(imported.startupMs / 1000, 1)} s`,
        baseline: '-',
        ratio: '-',
        target: 'reported',
        pass: true,
        note: `peak RSS ${fmt(importPeakMb, 0)} MB`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
