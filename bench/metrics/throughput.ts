/**
 * Realtime send throughput vs the bare Hono route (which parses the same body and answers the
 * same JSON as the emulator, bench/baseline-server.ts): autocannon, 50 connections, both
 * servers in child processes, runs interleaved so machine noise hits both alike.
 *
 * A third server, the emulator with every retention cap at 1, runs in the same rounds: it
 * does all of a send's work but keeps (almost) nothing, and so files (almost) nothing in its
 * indexes either (each record is dropped before the later turn that would file it): the gap
 * between it and the default emulator is what keeping and indexing records costs. The note
 * also gives the new memory pages each server took per send, and the CPU per send of its
 * main thread and of its other threads (V8's collector helpers), which take their time from
 * the load generator on a 2-core machine (docs/performance.md).
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
  threadCpuMs,
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
  /** CPU ms of the server's main thread, and of its other threads (the collector's helpers). */
  mainMs: number;
  othersMs: number;
}

export async function throughput(emulator: Child): Promise<Row> {
  const baseline = await startBaselineChild();
  const keepNothing = await startEmulatorChild(KEEP_NOTHING).catch(async (error: unknown) => {
    await baseline.stop();
    throw error;
  });
  const body = realtimeBody(makeFaker(SEED));
  const durationSec = QUICK ? 3 : 5;
  const series = (): Series => ({ perSec: [], faults: 0, requests: 0, mainMs: 0, othersMs: 0 });
  const base = series();
  const emu = series();
  const lean = series();
  /** One autocannon run against `server`; its throughput and page faults are added to `into` (none: a warm-up). */
  const measure = async (server: Child, path: string, into?: Series): Promise<void> => {
    const before = minorFaults(server.pid);
    const cpuBefore = threadCpuMs(server.pid);
    const seconds = into ? durationSec : 1;
    const result = await load({ url: `${server.url}${path}`, body, connections: 50, durationSec: seconds });
    const after = minorFaults(server.pid);
    const cpuAfter = threadCpuMs(server.pid);
    if (result.non2xx || result.errors)
      throw new Error(`realtime send to ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    if (into) {
      into.perSec.push(result.requestsPerSec);
      into.faults += before === null || after === null ? Number.NaN : after - before;
      into.requests += result.requests;
      into.mainMs += cpuBefore && cpuAfter ? cpuAfter.main - cpuBefore.main : Number.NaN;
      into.othersMs += cpuBefore && cpuAfter ? cpuAfter.others - cpuBefore.others : Number.NaN;
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
  const cpu = (s: Series) =>
    `${fmt((s.mainMs * 1000) / s.requests, 0)} + ${fmt((s.othersMs * 1000) / s.requests, 1)} µs`;
  return {
    metric: 'realtime send throughput (50 conn)',
    value: `${fmt(median(emu.perSec), 0)} req/s`,
    baseline: `${fmt(median(base.perSec), 0)} req/s (bare Hono, same JSON)`,
    ratio: `${fmt(ratio * 100, 0)}% (per run, median)`,
    target: `>= ${fmt(TARGET * 100, 0)}% (moonshot ${fmt(MOONSHOT * 100, 0)}%)`,
    pass: ratio >= TARGET,
    note:
      `moonshot ${ratio >= MOONSHOT ? 'met' : 'missed'}; ` +
      `runs: emulator ${runs(emu)}, baseline ${runs(base)}; ` +
      `ratio of the medians ${fmt((median(emu.perSec) / median(base.perSec)) * 100, 0)}%; ` +
      `every retention cap at 1 (records dropped as made): ${runs(lean)}, ` +
      `${fmt(medianOfRatios(lean.perSec, base.perSec) * 100, 0)}% (per run, median); ` +
      `new memory pages per send: emulator ${pages(emu)}, caps at 1 ${pages(lean)}, bare ${pages(base)}; ` +
      `CPU per send, main thread + other threads: emulator ${cpu(emu)}, caps at 1 ${cpu(lean)}, bare ${cpu(base)}`,
  };
}
