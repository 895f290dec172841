/**
 * Realtime send throughput vs the bare Hono route: autocannon, 50 connections, both
 * servers in child processes, runs interleaved so machine noise hits both alike.
 */
import { load, median, medianOfRatios, QUICK, RUNS, SEED, startBaselineChild, type Child } from '../util.js';
import { makeFaker, realtimeBody } from '../data.js';
import { fmt, type Row } from './types.js';

export async function throughput(emulator: Child): Promise<Row> {
  const baseline = await startBaselineChild();
  const body = realtimeBody(makeFaker(SEED));
  const durationSec = QUICK ? 3 : 5;
  const base: number[] = [];
  const emu: number[] = [];
  try {
    // Warm up both (JIT) before measuring.
    await load({ url: `${baseline.url}/send`, body, connections: 50, durationSec: 1 });
    await load({ url: `${emulator.url}/api/notifications/send`, body, connections: 50, durationSec: 1 });
    for (let i = 0; i < RUNS; i++) {
      const b = await load({ url: `${baseline.url}/send`, body, connections: 50, durationSec });
      const e = await load({ url: `${emulator.url}/api/notifications/send`, body, connections: 50, durationSec });
      if (e.non2xx || e.errors) throw new Error(`realtime send: ${e.non2xx} non-2xx, ${e.errors} errors`);
      base.push(b.requestsPerSec);
      emu.push(e.requestsPerSec);
    }
  } finally {
    await baseline.stop();
  }
  const ratio = medianOfRatios(emu, base);
  return {
    metric: 'realtime send throughput (50 conn)',
    value: `${fmt(median(emu), 0)} req/s`,
    baseline: `${fmt(median(base), 0)} req/s (bare Hono)`,
    ratio: `${fmt(ratio * 100, 0)}% (per run, median)`,
    target: '>= 60%',
    pass: ratio >= 0.6,
    note:
      `runs: emulator ${emu.map((v) => fmt(v, 0)).join('/')}, baseline ${base.map((v) => fmt(v, 0)).join('/')}; ` +
      `ratio of the medians ${fmt((median(emu) / median(base)) * 100, 0)}%`,
  };
}
