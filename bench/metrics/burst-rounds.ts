/**
 * The burst metric's rounds (bench/metrics/burst.ts): 100 concurrent queries on warm
 * keep-alive connections, the same against a bare Hono route (the floor), sequential queries
 * from a process of their own, and the loop monitor's seconds of a round.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_HEADERS, median, now, sleep, startBaselineChild, startReporter } from '../util.js';
import type { Query } from './burst-kinds.js';
import { fmt, type Row } from './types.js';

export const ROUNDS = 3;
export const CONCURRENT = 100;

export interface Second {
  at: number;
  delayMaxMs: number;
  cpuInGapMaxMs: number;
  gcMaxMs: number;
}

/**
 * The burst's client: keep-alive connections, one per concurrent query, opened before the
 * burst (see warm()), as a CI fleet's HTTP clients hold them. node:http rather than fetch():
 * on this 2-core machine fetch() spends ~1 ms of the bench's own CPU per request, so 100 of
 * them at once measured the client (~35–135 ms against a bare node:http server).
 */
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENT });

/** The round trip of GET `url`. */
function get(url: string): Promise<number> {
  const started = now();
  return new Promise((resolve, reject) => {
    const headers = url.includes('/api/') ? API_HEADERS : {};
    httpGet(url, { agent, headers }, (res) => {
      res.resume();
      res.once('end', () =>
        res.statusCode === 200 ? resolve(now() - started) : reject(new Error(`${url}: ${res.statusCode}`)),
      );
    }).once('error', reject);
  });
}

/** Opens (or reopens: the server closes idle ones after 5 s) the burst's connections. */
async function warm(url: string): Promise<void> {
  await Promise.all(Array.from({ length: CONCURRENT }, () => get(url)));
}

/**
 * The slowest of 100 concurrent answers, three rounds, of `url` on warm connections, after a
 * first round of other arguments that is not counted (`cold`): the kind's code runs for the
 * first time in it (compiled as it goes), and after ~10 s idle, these VMs run the first
 * tens of milliseconds of work slower in any process (docs/performance.md, Batch send).
 */
export async function slowestOfBursts(
  queries: Query[],
  base: string,
  warmUrl: string,
): Promise<{
  cold: number;
  slowest: number[];
  windows: [number, number][];
}> {
  const round = async (arg: (i: number) => number) => {
    await warm(warmUrl);
    await sleep(300);
    const from = performance.timeOrigin + now();
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) => get(`${base}${queries[i % queries.length]!(arg(i))}`)),
    );
    return { slowest: Math.max(...answers), window: [from, performance.timeOrigin + now()] as [number, number] };
  };
  const cold = (await round((i) => i + 1000)).slowest;
  const slowest: number[] = [];
  const windows: [number, number][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const { slowest: ms, window } = await round((i) => i + r);
    slowest.push(ms);
    windows.push(window);
  }
  return { cold, slowest, windows };
}

/**
 * The same bursts against a bare Hono route on this machine: what 100 concurrent answers cost
 * the client and the HTTP stack before the emulator does any work, for a small answer and for
 * a page of `pageBytes` (the largest the kinds answer), with the route's own event-loop delay:
 * reading 100 requests off the sockets is one turn of the loop, whatever answers them.
 */
export async function floorRows(pageBytes: number): Promise<Row[]> {
  const loopFile = join(tmpdir(), `burst-floor-loop-${process.pid}.json`);
  process.env.BENCH_LOOP_FILE = loopFile;
  const bare = await startBaselineChild(['--import', './bench/loop-monitor.mjs']);
  delete process.env.BENCH_LOOP_FILE;
  // Past its start (loading the TypeScript runner held its loop ~200 ms): as the emulator is.
  await sleep(1500);
  try {
    const routes = {
      'a bare Hono GET route': '/health',
      [`a bare Hono route answering ${fmt(pageBytes / 1024, 0)} KB`]: `/page?bytes=${pageBytes}`,
    };
    const measured = [];
    for (const [name, path] of Object.entries(routes)) {
      const { cold, slowest, windows } = await slowestOfBursts([() => path], bare.url, `${bare.url}/health`);
      measured.push({ name, cold, slowest, windows });
    }
    await sleep(1100);
    const { seconds } = JSON.parse(readFileSync(loopFile, 'utf8')) as { seconds: Second[] };
    return measured.map(({ name, cold, slowest, windows }) => {
      const { delay, block } = loopIn(seconds, windows);
      return {
        metric: `burst floor: ${name}, ${CONCURRENT} concurrent x ${ROUNDS}`,
        value: `slowest of ${CONCURRENT} ${fmt(median(slowest), 0)} ms (max ${fmt(Math.max(...slowest), 0)})`,
        baseline: '-',
        ratio: '-',
        target: 'reported',
        pass: undefined,
        note:
          `the client and HTTP stack alone, on the same keep-alive connections: read the kinds against it; ` +
          `the first round, not counted: ${fmt(cold, 0)} ms; ` +
          `longest event-loop delay ${fmt(delay, 0)} ms wall, longest block ${fmt(block, 0)} ms CPU`,
      };
    });
  } finally {
    await bare.stop();
    rmSync(loopFile, { force: true });
  }
}

/** The longest event-loop delay and CPU block of the monitor's seconds that overlap `windows`. */
export function loopIn(seconds: Second[], windows: [number, number][]): { delay: number; block: number; gc: number } {
  const busy = seconds.filter((s) => windows.some(([from, to]) => s.at > from && s.at - 1000 < to));
  return {
    delay: Math.max(0, ...busy.map((s) => s.delayMaxMs)),
    block: Math.max(0, ...busy.map((s) => s.cpuInGapMaxMs)),
    gc: Math.max(0, ...busy.map((s) => s.gcMaxMs)),
  };
}

/**
 * The round trips of GET `urls` one after another, each marked with its `calls` number for the
 * emulator's own timing, from bench/sequential-client.mjs: a process of its own, whose first
 * call (`warmUrl`, opening the connection) is not counted.
 */
export async function oneAfterAnother(urls: string[], calls: number[], warmUrl: string): Promise<number[]> {
  const file = join(tmpdir(), `burst-calls-${process.pid}.json`);
  const headers = (url: string, call?: number) => ({
    ...(url.includes('/api/') ? API_HEADERS : {}),
    ...(call === undefined ? {} : { 'x-bench-call': String(call) }),
  });
  writeFileSync(
    file,
    JSON.stringify([
      { url: warmUrl, headers: {} },
      ...urls.map((url, i) => ({ url, headers: headers(url, calls[i]) })),
    ]),
  );
  try {
    const times = await startReporter<number[]>('bench/sequential-client.mjs', [file]).stop();
    return times.slice(1);
  } finally {
    rmSync(file, { force: true });
  }
}
