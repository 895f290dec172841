/**
 * Traces at 1,000,000 deliveries: GET /__export streamed to a file (time, the emulator's peak
 * RSS, and the /__health latency meanwhile, probed every 20 ms from its own process), then
 * `--import` of that file in a fresh emulator (time to listening, peak RSS).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { now, percentile, ROOT, rssOf, startEmulatorChild } from '../util.js';
import { fillDeliveries } from './store-scale.js';
import { fmt, type Row } from './types.js';

/** bench/health-probe.mjs in its own process: latencies of GET /__health every 20 ms until stopped. */
function probeHealth(url: string): { stop(): Promise<number[]> } {
  const child = spawn(process.execPath, [join(ROOT, 'bench/health-probe.mjs'), `${url}/__health`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    async stop() {
      child.stdin.end();
      await exited;
      const probes = JSON.parse(out) as [number, number | null][];
      if (probes.some(([, ms]) => ms === null)) throw new Error('a /__health probe failed during the export');
      return probes.map(([, ms]) => ms!);
    },
  };
}

export async function traceScale(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-trace-'));
  const file = join(dir, 'trace.json');
  try {
    const source = await startEmulatorChild();
    let exportMs: number;
    let exportPeakMb: number;
    let health: number[];
    try {
      await fillDeliveries(source, 1_000_000);
      const before = rssOf(source.pid).rssMb;
      const probe = probeHealth(source.url);
      const started = now();
      const res = await fetch(`${source.url}/__export`);
      await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
      exportMs = now() - started;
      health = await probe.stop();
      exportPeakMb = Math.max(rssOf(source.pid).rssMb, before);
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
        note: `${fmt(sizeMb, 0)} MB written; emulator RSS after the export ${fmt(exportPeakMb, 0)} MB`,
      },
      {
        metric: '/__health during the export (max)',
        value: `${fmt(worst, 1)} ms`,
        baseline: '-',
        ratio: '-',
        target: '<= 100 ms',
        pass: worst <= 100,
        note: `${health.length} probes, p99 ${fmt(percentile(health, 99), 1)} ms`,
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
