/**
 * Shared bench helpers: child processes for the emulator (from dist/) and the baseline
 * server, RSS readings from /proc, statistics (median, percentiles) and an autocannon wrapper.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const QUICK = process.env.BENCH_QUICK === '1';
/** Runs per metric whose median is reported. */
export const RUNS = QUICK ? 3 : 5;
export const SEED = 20261123;
/** The built emulator to measure (BENCH_DIST=path to compare another build). */
export const DIST = process.env.BENCH_DIST ?? 'dist';

export const median = (values: number[]): number => percentile(values, 50);

/**
 * The median of each run's own ratio (values[i] / baselines[i]): a pair is measured within
 * seconds, so a drift in the machine's speed over a metric's minute cancels out of it.
 */
export const medianOfRatios = (values: number[], baselines: number[]): number =>
  median(values.map((value, i) => value / baselines[i]!));

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export const now = (): number => performance.now();

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident set size and its peak (VmHWM) of a process, in MB, from /proc (Linux). */
export function rssOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/**
 * The kernel's count of connections dropped because a listen queue was full (TcpExt
 * ListenOverflows in /proc/net/netstat, machine-wide), or null off Linux. A dropped
 * connect is retried by the client only after a second.
 */
export function listenOverflows(): number | null {
  try {
    // Two TcpExt lines: the counters' names, then their values.
    const [names, values] = readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('TcpExt:'))
      .map((line) => line.split(/\s+/));
    const at = names?.indexOf('ListenOverflows') ?? -1;
    return at > 0 && values ? Number(values[at]) : null;
  } catch {
    return null;
  }
}

/**
 * Minor page faults of a process so far (Linux: /proc/<pid>/stat), or null elsewhere. Each
 * is the kernel handing the process a fresh page: a heap that grows pays one per 4 KiB.
 */
export function minorFaults(pid: number): number | null {
  try {
    return Number(statFields(`/proc/${pid}/stat`)[7]);
  } catch {
    return null;
  }
}

/** The fields of a /proc stat file after the command name, which sits in parentheses and may hold spaces or ")". */
function statFields(path: string): string[] {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
}

/**
 * Milliseconds of CPU (user and system) a process's main thread and its other threads (V8's
 * helpers, libuv's pool) have used so far, or null off Linux.
 */
export function threadCpuMs(pid: number): { main: number; others: number } | null {
  try {
    // utime and stime, in clock ticks (100 a second on Linux).
    const ms = (task: string) => {
      const fields = statFields(`/proc/${pid}/task/${task}/stat`);
      return (Number(fields[11]) + Number(fields[12])) * 10;
    };
    let others = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) if (task !== String(pid)) others += ms(task);
    return { main: ms(String(pid)), others };
  } catch {
    return null;
  }
}

export interface Child {
  url: string;
  pid: number;
  process: ChildProcess;
  /** ms from spawn to the "listening on" line */
  startupMs: number;
  stop(): Promise<void>;
}

/**
 * Node flags added to every server the bench starts (BENCH_NODE_FLAGS='--cpu-prof
 * --cpu-prof-dir=/tmp/prof': Node refuses profiling flags in NODE_OPTIONS).
 */
const EXTRA_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

/** Spawns a node process and resolves once it prints a line containing `http://…`. */
/** `readyWithinMs`: how long the child may take to print its URL (one that fills a store first takes longer). */
export function spawnServer(
  args: string[],
  nodeFlags: string[] = [],
  readyWithinMs = 20_000,
  env: Record<string, string> = {},
): Promise<Child> {
  const started = now();
  const child = spawn(process.execPath, [...EXTRA_NODE_FLAGS, ...nodeFlags, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /(http:\/\/[^\s]+)/.exec(stdout)?.[1];
      if (!url) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      const startupMs = now() - started;
      resolve({
        url,
        pid: child.pid!,
        process: child,
        startupMs,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 3000).unref();
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited with ${code} before listening:\n${stderr}`)),
    );
    setTimeout(() => {
      if (child.exitCode === null && !/http:\/\//.test(stdout)) {
        child.kill('SIGKILL');
        reject(new Error(`${args.join(' ')} did not print its URL within ${readyWithinMs / 1000} s:\n${stderr}`));
      }
    }, readyWithinMs).unref();
  });
}

/** The emulator as users run it: dist/cli.js, open auth, quiet, seeded, no file watching. */
export function startEmulatorChild(
  extra: string[] = [],
  nodeFlags: string[] = [],
  listenWithinMs?: number,
): Promise<Child> {
  return spawnServer(
    [
      `${DIST}/cli.js`,
      '--port',
      '0',
      '--log-level',
      'error',
      '--no-watch',
      '--seed',
      String(SEED),
      '--fixtures',
      'fixtures',
      '--scenarios',
      'scenarios',
      ...extra,
    ],
    nodeFlags,
    listenWithinMs,
  );
}

/** The emulator with its default flags (file watching on), as `npx notification-emulator --port 0` starts it. */
export function startDefaultEmulatorChild(): Promise<Child> {
  return spawnServer([`${DIST}/cli.js`, '--port', '0', '--log-level', 'error']);
}

export function startBaselineChild(nodeFlags: string[] = []): Promise<Child> {
  return spawnServer(['--import', 'tsx', 'bench/baseline-server.ts'], nodeFlags);
}

export const API_HEADERS = { 'content-type': 'application/json', appid: 'bench-app', apikey: 'bench-key' } as const;

export interface LoadResult {
  requestsPerSec: number;
  /** Requests answered over the whole run. */
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** autocannon with one fixed POST body; averages of requests/s and latency percentiles. */
export async function load(options: {
  url: string;
  body?: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  connections: number;
  durationSec: number;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'POST',
    headers: options.headers ?? { ...API_HEADERS },
    body: options.body,
    connections: options.connections,
    duration: options.durationSec,
  });
  return {
    requestsPerSec: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** POSTs JSON as app `appid` (the bench's app by default); answers the status and the parsed body. */
export async function postJson(
  url: string,
  body: unknown,
  appid: string = API_HEADERS.appid,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...API_HEADERS, appid },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
}

export function expectStatus(what: string, res: { status: number; json: unknown }, status = 200): void {
  if (res.status !== status)
    throw new Error(`${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.json).slice(0, 300)}`);
}

export function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** One /__health probe: when it was sent (ms since the epoch) and how long the answer took (Infinity: it failed). */
export interface Probe {
  start: number;
  ms: number;
}

/**
 * A bench script in its own process (away from the load generator's busy event loop) that
 * works until its stdin closes and then prints JSON: stop() closes stdin and parses what it printed.
 */
const READY_LINE = 'ready\n';

export function startReporter<T>(script: string, args: string[]): { ready: Promise<void>; stop(): Promise<T> } {
  const child = spawn(process.execPath, [join(ROOT, script), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let signalReady: () => void;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    // A reporter that warms up first says so in a line of its own before its report.
    if (out.startsWith(READY_LINE)) {
      out = out.slice(READY_LINE.length);
      signalReady();
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  void exited.then(() => signalReady());
  return {
    ready,
    async stop() {
      child.stdin!.end();
      await exited;
      return JSON.parse(out) as T;
    },
  };
}

/**
 * bench/health-probe.mjs, a probe every `intervalMs`, resolved once the probe is warm: a fresh
 * Node process's first fetch() loads the HTTP client and takes ~80 ms whatever the server, and
 * would otherwise be counted as the emulator's slowest answer.
 */
export async function startHealthProbe(url: string, intervalMs = 20): Promise<{ stop(): Promise<Probe[]> }> {
  const reporter = startReporter<[number, number | null][]>('bench/health-probe.mjs', [url, String(intervalMs)]);
  await reporter.ready;
  return {
    stop: async () => (await reporter.stop()).map(([start, ms]) => ({ start, ms: ms ?? Number.POSITIVE_INFINITY })),
  };
}
