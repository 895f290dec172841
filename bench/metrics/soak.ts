/**
 * Long load: 1,000 keep-alive connections for 60 s (BENCH_SOAK_SEC, BENCH_SOAK_CONN to
 * shorten or lengthen) at a steady rate, mixing realtime and batch sends for two apps, inspect
 * queries and /__health, on stores prefilled to the soak's caps (soak-load.ts); beside them a
 * 5,000-row campaign per app every 2 s, a burst of 100 queries of one inspect kind after
 * another, an SSE reader of every event type and 10 long-polls. Figures: errors
 * (socket errors, timeouts, non-2xx, a burst's failed query, an event type the stream never
 * sent), /__health p99 under that load (less the probes the bench's own full collections
 * delayed), live heap between 20 s and the end, and the longest event-loop block
 * (bench/loop-monitor.mjs). The prefill, a 2 s warm-up at 50 connections and one upload come
 * first and are not measured.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  API_HEADERS,
  listenOverflows,
  now,
  percentile,
  sleep,
  startEmulatorChild,
  startHealthProbe,
  type Probe,
} from '../util.js';
import { createCampaign, recipientsCsv, upload } from './csv-data.js';
import { capFlags, EVENT_TYPES, prefill, startSideLoads, type SideLoads } from './soak-load.js';
import { fmt, type Row } from './types.js';

const SECONDS = Number(process.env.BENCH_SOAK_SEC ?? 60);
const CONNECTIONS = Number(process.env.BENCH_SOAK_CONN ?? 1000);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 500);
const WARM_UP_SECONDS = 2;
const ROWS = 5_000;

interface Second {
  liveHeapMb: number | null;
  delayMaxMs: number;
  cpuInGapMaxMs: number;
  heapUsedMb: number;
  rssMb: number;
}

function requests(): autocannon.Request[] {
  const headers = (appid: string) => ({ ...API_HEADERS, appid });
  const send = (appid: string, targets: string[]) => ({
    method: 'POST' as const,
    path: '/api/notifications/send',
    headers: headers(appid),
    body: JSON.stringify({
      template: { key: 'welcome-message', variables: { name: 'Ada' } },
      targets,
      mode: targets.length > 1 ? 'batch' : 'realtime',
    }),
  });
  const batch = Array.from({ length: 100 }, (_, i) => `batch-user-${i}`);
  return [
    send('soak-a', ['user-1']),
    send('soak-b', ['user-2']),
    send('soak-a', ['user-3']),
    { method: 'GET', path: '/__inspect/deliveries?userId=user-1&limit=5' },
    send('soak-b', batch),
    { method: 'GET', path: '/__inspect/notifications?limit=5&order=desc' },
    send('soak-a', ['user-4']),
    { method: 'GET', path: '/__inspect/requests?limit=5&appId=soak-b' },
    { method: 'GET', path: '/__inspect/deliveries?appId=soak-a&limit=5' },
    { method: 'GET', path: '/__health' },
  ];
}

export async function soak(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'emu-soak-'));
  const loopFile = join(dir, 'loop.json');
  process.env.BENCH_LOOP_FILE = loopFile;
  const at20 = Math.min(20, Math.round(SECONDS / 3));
  const spawned = now();
  const emulator = await startEmulatorChild(capFlags(), [
    '--expose-gc',
    '--import',
    './bench/loop-monitor.mjs',
    ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
  ]);
  delete process.env.BENCH_LOOP_FILE;
  const csv = recipientsCsv(ROWS);
  const problems: string[] = [];
  /** Asks bench/loop-monitor.mjs for a full collection and the live heap at its next second. */
  const noteLiveHeap = () => process.kill(emulator.pid, 'SIGUSR2');
  let liveHeapTimers: NodeJS.Timeout[] = [];
  let side: SideLoads | undefined;
  try {
    const prefillMs = await prefill(emulator.url, csv, ROWS);
    // Warm-up, not measured (as every metric warms up): the request paths compiled and the
    // CSV path run once, so the figures are the steady state's, not a cold process's.
    await autocannon({
      url: emulator.url,
      connections: 50,
      duration: WARM_UP_SECONDS,
      overallRate: RATE,
      requests: requests(),
    });
    await upload(emulator.url, await createCampaign(emulator.url, 'soak-warm-up'), csv, ROWS);
    const started = now();
    /** Seconds of the loop monitor (counted from the emulator's start) that the warm-up took. */
    const warmSeconds = Math.round((started - spawned) / 1000);
    // At 20 s and in the last second of the load (not after it, when nothing is in flight).
    liveHeapTimers = [at20, SECONDS - 1].map((s) => setTimeout(noteLiveHeap, s * 1000));
    // /__health probe, a request every 20 ms, from its own process (bench/health-probe.mjs).
    const probe = await startHealthProbe(`${emulator.url}/__health`);
    side = startSideLoads(emulator.url, csv, ROWS, problems);
    const overflowsBefore = listenOverflows();
    const load = await autocannon({
      url: emulator.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      overallRate: RATE,
      requests: requests(),
      timeout: 10,
    });
    const overflowsAfter = listenOverflows();
    const overflows =
      overflowsBefore === null || overflowsAfter === null ? 'n/a' : String(overflowsAfter - overflowsBefore);
    const probes = await probe.stop();
    const failedProbes = probes.filter((p) => p.ms === Number.POSITIVE_INFINITY).length;
    if (failedProbes > 0) problems.push(`${failedProbes} /__health probes failed`);
    const { campaigns: campaignCount, sseBytes, sseTypes, bursts } = await side.stop();
    side = undefined;
    for (const type of EVENT_TYPES) if (!sseTypes.has(type)) problems.push(`the stream sent no ${type} event`);
    await sleep(1500);
    const { seconds, forcedGcs } = JSON.parse(readFileSync(loopFile, 'utf8')) as {
      seconds: Second[];
      forcedGcs: [number, number][];
    };
    // The full collections the bench forces to read the live heap pause the emulator; a
    // probe in flight during one measures the bench, not the emulator, and is left out.
    const duringForcedGc = (p: Probe) => forcedGcs.some(([from, to]) => p.start < to && p.start + p.ms > from);
    const health = probes.filter((p) => !duringForcedGc(p)).map((p) => p.ms);
    const allProbesP99 = percentile(
      probes.map((p) => p.ms),
      99,
    );
    // Live heap: after a full collection at 20 s and at the end (bench/loop-monitor.mjs).
    const live = seconds.map((s) => s.liveHeapMb).filter((v): v is number => v !== null);
    const [heap20, heapEnd] = [live[0] ?? Number.NaN, live.at(-1) ?? Number.NaN];
    const drift = heapEnd / heap20 - 1;
    const p99 = percentile(health, 99);
    const run = seconds.slice(warmSeconds, warmSeconds + SECONDS);
    const cpuBlock = Math.max(...run.map((s) => s.cpuInGapMaxMs));
    const delay = Math.max(...run.map((s) => s.delayMaxMs));
    const slowSeconds = run
      .map((s, i) => [i + 1, s.cpuInGapMaxMs] as const)
      .filter(([, ms]) => ms > 50)
      .map(([i, ms]) => `${i}s:${fmt(ms, 0)}`);
    const errors = load.errors + load.timeouts;
    const problemNote = problems.length ? `; problems: ${problems.slice(0, 3).join('; ')}` : '';
    const note =
      `${fmt((now() - started) / 1000, 0)} s, ${CONNECTIONS} connections at ${RATE} req/s: ` +
      `${load.requests.total} requests (${load.non2xx} non-2xx), ${campaignCount} campaigns of 5,000, ` +
      `SSE read ${fmt(sseBytes / 1e6, 1)} MB (${[...sseTypes].map(([t, n]) => `${n} ${t}`).join(', ')}); ` +
      `slowest of 100 per burst kind, each round (the first is the burst client's first, on new connections): ` +
      `${[...bursts].map(([k, rounds]) => `${k} ${rounds.map((ms) => fmt(ms, 0)).join('/')} ms`).join(', ')}; ` +
      `stores prefilled in ${fmt(prefillMs / 1000, 0)} s; ` +
      `listen-queue overflows (machine-wide) ${overflows}${problemNote}`;
    return [
      {
        metric: `soak ${SECONDS} s: socket errors + timeouts`,
        value: String(errors),
        baseline: '-',
        ratio: '-',
        target: '0',
        pass: errors === 0 && load.non2xx === 0 && problems.length === 0,
        note,
      },
      {
        metric: 'soak: /__health p99',
        value: `${fmt(p99, 0)} ms`,
        baseline: '-',
        ratio: '-',
        target: '<= 50 ms',
        pass: p99 <= 50,
        note:
          `${health.length} probes, max ${fmt(Math.max(...health), 0)} ms; ` +
          `${probes.length - health.length} more in flight during the bench's forced GCs ` +
          `(${forcedGcs.map(([from, to]) => fmt(to - from, 0)).join(' and ')} ms) left out ` +
          `(p99 with them ${fmt(allProbesP99, 0)} ms); ` +
          `longest event-loop delay ${fmt(delay, 0)} ms wall, longest block ${fmt(cpuBlock, 0)} ms CPU; ` +
          `seconds with a block over 50 ms CPU: ${slowSeconds.join(' ') || 'none'}`,
      },
      {
        metric: `soak: live heap, ${at20} s -> end`,
        value: `${fmt(heap20, 0)} -> ${fmt(heapEnd, 0)} MB`,
        baseline: '-',
        ratio: `${drift >= 0 ? '+' : ''}${fmt(drift * 100, 0)}%`,
        target: 'within 15%',
        pass: Math.abs(drift) <= 0.15,
        note:
          `heap used after a full GC at those seconds; ` +
          `RSS at the end ${fmt(seconds.at(-1)?.rssMb ?? Number.NaN, 0)} MB`,
      },
    ];
  } finally {
    await side?.stop().catch(() => undefined);
    liveHeapTimers.forEach(clearTimeout);
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
