/**
 * Realtime send throughput vs the bare Hono route: autocannon, 50 connections, both
 * servers in child processes, runs interleaved so machine noise hits both alike.
 *
 * A third server, the emulator with every retention cap at 1, runs in the same rounds: it
 * does all of a send's work but keeps (almost) nothing, so the gap between it and the
 * default emulator is what keeping records costs. The note also gives the new memory pages
 * each server took per send (docs/performance.md).
 */
import {
  load,
  median,
  medianOfRatios,
  minorFaults,
  QUICK,
  RUNS,
  SEED,
  startBaselineChild,
  startEmulatorChild,
  type Child,
} from '../util.js';
import { makeFaker, realtimeBody } from '../data.js';
import { fmt, type Row } from './types.js';

/** The target for the per-run median ratio, and the moonshot beside it. */
const TARGET = 0.8;
const MOONSHOT = 1.0;

const KEEP_NOTHING = ['--max-deliveries', '1', '--max-notifications', '1', '--max-journal', '1'];

interface Series {
  perSec: number[];
  faults: number;
  requests: number;
}

export async function throughput(emulator: Child): Promise<Row> {
  const baseline = await startBaselineChild();
  const keepNothing = await startEmulatorChild(KEEP_NOTHING).catch(async (error: unknown) => {
    await baseline.stop();
    throw error;
  });
  const body = realtimeBody(makeFaker(SEED));
  const durationSec = QUICK ? 3 : 5;
  const series = (): Series => ({ perSec: [], faults: 0, requests: 0 });
  const base = series();
  const emu = series();
  const lean = series();
  /** One autocannon run against `server`; its throughput and page faults are added to `into` (none: a warm-up). */
  const measure = async (server: Child, path: string, into?: Series): Promise<void> => {
    const before = minorFaults(server.pid);
    const seconds = into ? durationSec : 1;
    const result = await load({ url: `${server.url}${path}`, body, connections: 50, durationSec: seconds });
    const after = minorFaults(server.pid);
    if (result.non2xx || result.errors)
      throw new Error(`realtime send to ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    if (into) {
      into.perSec.push(result.requestsPerSec);
      into.faults += before === null || after === null ? Number.NaN : after - before;
      into.requests += result.requests;
    }
  };
  const send = '/api/notifications/send';
  try {
    // Warm up all three (JIT) before measuring.
    await measure(baseline, '/send');
    await measure(emulator, send);
    await measure(keepNothing, send);
    for (let i = 0; i < RUNS; i++) {
      await measure(baseline, '/send', base);
      await measure(emulator, send, emu);
      await measure(keepNothing, send, lean);
    }
  } finally {
    await Promise.all([baseline.stop(), keepNothing.stop()]);
  }
  const ratio = medianOfRatios(emu.perSec, base.perSec);
  const runs = (s: Series) => s.perSec.map((v) => fmt(v, 0)).join('/');
  const pages = (s: Series) => fmt(s.faults / s.requests, 2);
  return {
    metric: 'realtime send throughput (50 conn)',
    value: `${fmt(median(emu.perSec), 0)} req/s`,
    baseline: `${fmt(median(base.perSec), 0)} req/s (bare Hono)`,
    ratio: `${fmt(ratio * 100, 0)}% (per run, median)`,
    target: `>= ${fmt(TARGET * 100, 0)}% (moonshot ${fmt(MOONSHOT * 100, 0)}%)`,
    pass: ratio >= TARGET,
    note:
      `moonshot ${ratio >= MOONSHOT ? 'met' : 'missed'}; ` +
      `runs: emulator ${runs(emu)}, baseline ${runs(base)}; ` +
      `ratio of the medians ${fmt((median(emu.perSec) / median(base.perSec)) * 100, 0)}%; ` +
      `every retention cap at 1 (records dropped as made): ${runs(lean)}, ` +
      `${fmt(medianOfRatios(lean.perSec, base.perSec) * 100, 0)}% (per run, median); ` +
      `new memory pages per send: emulator ${pages(emu)}, caps at 1 ${pages(lean)}, bare ${pages(base)}`,
  };
}
