/**
 * Bursts of inspect queries on full stores: bench/full-store-server.mjs fills every store to
 * its default cap (deliveries too: 1,000,000, a fifth of them realtime sends of one) through
 * the store ports, then, for each inspect kind, 100 concurrent queries on open keep-alive
 * connections (three rounds) while bench/health-probe.mjs asks /__health every 10 ms from its
 * own process. The same bursts against a bare Hono route come first: the client's floor. Reported per kind:
 * the slowest of the 100 answers, /__health p50/p99/max while the bursts were in flight, the
 * longest event-loop delay and CPU block (bench/loop-monitor.mjs) in those seconds, and each
 * filter's p99 over sequential queries, each with a page size of its own (pageOfItsOwn).
 */
import { readFileSync, rmSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  API_HEADERS,
  median,
  now,
  percentile,
  QUICK,
  rssOf,
  sleep,
  spawnServer,
  startBaselineChild,
  startHealthProbe,
  type Child,
  type Probe,
} from '../util.js';
import { fmt, type Row } from './types.js';

const ROUNDS = 3;
const CONCURRENT = 100;
const TARGET = 'health p99 <= 50, max <= 100; slowest of 100 <= 100; block <= 20; p99 <= 5 ms';

type Query = (i: number) => string;

/** Each inspect kind's queries: its documented filters, pages far from the first, both orders. */
function kinds(ids: { campaign: string; deliveries: string[] }): Record<string, Query[]> {
  const user = (i: number) => `user-${(i * 7919) % 100_000}`;
  const hourAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
  const range = `since=${hourAgo}&until=${new Date().toISOString()}`;
  const notif = (i: number) => `notif_${(0x10000000 + i * 3).toString(16).padStart(24, '0')}`;
  return {
    deliveries: [
      (i) => `/__inspect/deliveries?userId=${user(i)}`,
      (i) => `/__inspect/deliveries?appId=bench-app&userId=${user(i)}&status=sent`,
      (i) => `/__inspect/deliveries?appId=bench-app-2&templateKey=template-${i % 5}`,
      (i) => `/__inspect/deliveries?tag=tag-${i % 7}&order=desc`,
      () => '/__inspect/deliveries?channel=push&offset=5000',
      () => '/__inspect/deliveries?status=failed&order=desc&offset=200',
      () => `/__inspect/deliveries?mode=realtime&${range}&offset=1000`,
      () => '/__inspect/deliveries?appId=bench-app&mode=batch&tag=bench&limit=20',
    ],
    'delivery-stats': [
      () => '/__inspect/delivery-stats',
      () => `/__inspect/delivery-stats?appId=bench-app&${range}`,
      (i) => `/__inspect/delivery-stats?templateKey=template-${i % 5}&${range}&bucketMs=300000`,
      () => `/__inspect/delivery-stats?channel=push&mode=realtime&${range}`,
    ],
    notifications: [
      () => '/__inspect/notifications?appId=bench-app&mode=realtime',
      (i) => `/__inspect/notifications?templateKey=template-${i % 5}&order=desc&offset=3000`,
      (i) => `/__inspect/notifications?appId=bench-app-2&tag=tag-${i % 7}`,
      (i) => `/__inspect/notifications?notificationId=${notif(i)}`,
      () => `/__inspect/notifications?mode=batch&${range}`,
      (i) => `/__inspect/notifications?mode=batch&templateKey=template-${i % 5}`,
    ],
    requests: [
      () => '/__inspect/requests?appId=bench-app&method=GET',
      () => '/__inspect/requests?path=/api/notifications/send&status=400&order=desc',
      () => '/__inspect/requests?errorCode=ERR_BAD_REQUEST&offset=200',
      () => '/__inspect/requests?scenario=flaky',
      () => `/__inspect/requests?${range}&order=desc&offset=2000`,
      () => '/__inspect/requests?appId=bench-app-2&method=POST&status=200',
    ],
    'requests bodyContains': [(i) => `/__inspect/requests?bodyContains=${encodeURIComponent(`"n":${i * 97},`)}`],
    campaigns: [
      () => '/__inspect/campaigns?status=sent',
      () => '/__inspect/campaigns?appId=bench-app&order=desc&offset=100',
      () => '/__inspect/campaigns?appId=bench-app-2&status=draft',
      () => `/__inspect/campaigns/${ids.campaign}`,
    ],
    'campaign recipients': [
      () => `/__inspect/campaigns/${ids.campaign}/recipients?status=failed`,
      () => `/__inspect/campaigns/${ids.campaign}/recipients?order=desc&offset=50`,
    ],
    apps: [() => '/__apps', () => '/__apps/bench-app/templates'],
    'deliveries by id': [(i) => `/__inspect/deliveries/${ids.deliveries[i % ids.deliveries.length]}`],
    'GET /api/analytics/users/{id}': [(i) => `/api/analytics/users/${user(i)}`],
  };
}

/** The lists that keep their answers between writes (src/http/answer-memo.ts), by path. */
const KEPT_LIST = /^\/__inspect\/(deliveries|notifications|requests|campaigns|campaigns\/[^/]+\/recipients)$/;

/**
 * `url` with a page size of its own for call `i` (20 + i), for a list that keeps its answers:
 * each sequential call is then answered from the indexes, not from the answer kept for the
 * call before (which measured the kept answers, not the filter).
 */
function pageOfItsOwn(url: string, i: number): string {
  const parsed = new URL(url, 'http://bench');
  if (!KEPT_LIST.test(parsed.pathname)) return url;
  parsed.searchParams.set('limit', String(20 + i));
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * The burst's client: keep-alive connections, one per concurrent query, opened before the
 * burst (see warm()), as a CI fleet's HTTP clients hold them. node:http rather than fetch():
 * on this 2-core machine fetch() spends ~1 ms of the bench's own CPU per request, so 100 of
 * them at once measured the client (~35–135 ms against a bare node:http server).
 */
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENT });

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

/** The slowest of 100 concurrent answers, three rounds, of `url` on warm connections. */
async function slowestOfBursts(
  queries: Query[],
  base: string,
  warmUrl: string,
): Promise<{
  slowest: number[];
  windows: [number, number][];
}> {
  const slowest: number[] = [];
  const windows: [number, number][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await warm(warmUrl);
    await sleep(300);
    const from = performance.timeOrigin + now();
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) => get(`${base}${queries[i % queries.length]!(i + round)}`)),
    );
    windows.push([from, performance.timeOrigin + now()]);
    slowest.push(Math.max(...answers));
  }
  return { slowest, windows };
}

/**
 * The same bursts against a bare Hono route on this machine: what 100 concurrent answers cost
 * the client and the HTTP stack before the emulator does any work.
 */
async function floorRow(): Promise<Row> {
  const bare = await startBaselineChild();
  try {
    const { slowest } = await slowestOfBursts([() => '/health'], bare.url, `${bare.url}/health`);
    return {
      metric: `burst floor: a bare Hono GET route, ${CONCURRENT} concurrent x ${ROUNDS}`,
      value: `slowest of ${CONCURRENT} ${fmt(median(slowest), 0)} ms (max ${fmt(Math.max(...slowest), 0)})`,
      baseline: '-',
      ratio: '-',
      target: 'reported',
      pass: undefined,
      note: 'the client and HTTP stack alone, on the same keep-alive connections: read the kinds above against it',
    };
  } finally {
    await bare.stop();
  }
}

const json = async <T>(url: string) => (await (await fetch(url)).json()) as T;

interface Second {
  at: number;
  delayMaxMs: number;
  cpuInGapMaxMs: number;
}

/** The delivery ids the by-id kind asks for: the oldest, the newest and some between. */
async function deliveryIds(url: string): Promise<string[]> {
  const { total } = await json<{ total: number }>(`${url}/__inspect/deliveries?limit=0`);
  const ids: string[] = [];
  for (const offset of [0, 1, Math.floor(total / 3), Math.floor(total / 2), total - 2, total - 1]) {
    const page = await json<{ items: { id: string }[] }>(`${url}/__inspect/deliveries?limit=1&offset=${offset}`);
    ids.push(page.items[0]!.id);
  }
  return ids;
}

export async function burst(): Promise<Row[]> {
  const floor = await floorRow();
  const report = join(tmpdir(), `burst-${process.pid}.json`);
  const loopFile = join(tmpdir(), `burst-loop-${process.pid}.json`);
  Object.assign(process.env, { FULL_STORE_REPORT: report, BENCH_LOOP_FILE: loopFile });
  const nodeFlags = ['--expose-gc', '--import', './bench/loop-monitor.mjs'];
  const emulator: Child = await spawnServer(['bench/full-store-server.mjs'], nodeFlags, 600_000);
  for (const name of ['FULL_STORE_REPORT', 'BENCH_LOOP_FILE']) delete process.env[name];
  let stderr = '';
  emulator.process.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  emulator.process.once('exit', (code) => process.stderr.write(`burst server exited (${code}): ${stderr}\n`));
  try {
    const startup = readFileSync(report, 'utf8');
    const { items } = await json<{ items: { id: string }[] }>(`${emulator.url}/__inspect/campaigns?limit=1`);
    const all = kinds({ campaign: items[0]!.id, deliveries: await deliveryIds(emulator.url) });
    const probe = await startHealthProbe(`${emulator.url}/__health`, 10);
    await sleep(500);
    const windows: Record<string, [number, number][]> = {};
    const slowest: Record<string, number[]> = {};
    const sequentialP99: Record<string, number[]> = {};
    for (const [kind, queries] of Object.entries(all)) {
      ({ slowest: slowest[kind], windows: windows[kind] } = await slowestOfBursts(
        queries,
        emulator.url,
        `${emulator.url}/__health`,
      ));
      sequentialP99[kind] = [];
      for (const query of queries) {
        const times: number[] = [];
        for (let i = 0; i < (QUICK ? 20 : 50); i++)
          times.push(await get(`${emulator.url}${pageOfItsOwn(query(i), i)}`));
        sequentialP99[kind].push(percentile(times, 99));
      }
      await sleep(1100); // the loop monitor's seconds of one kind apart from the next's
    }
    const probes = await probe.stop();
    await sleep(1100);
    const { seconds } = JSON.parse(readFileSync(loopFile, 'utf8')) as { seconds: Second[] };
    const rows = [floor];
    rows.push(
      ...Object.keys(all).map((kind) =>
        kindRow(kind, slowest[kind]!, sequentialP99[kind]!, windows[kind]!, probes, seconds),
      ),
    );
    const { peakMb } = rssOf(emulator.pid);
    rows.push({
      metric: 'bursts: every store at its default cap (1,000,000 deliveries)',
      value: `peak RSS ${fmt(peakMb, 0)} MB`,
      baseline: '-',
      ratio: '-',
      target: 'reported',
      pass: undefined,
      note: `fill (live heap per record, store-level p99 per filter): ${startup}`,
    });
    return rows;
  } finally {
    await emulator.stop();
    rmSync(report, { force: true });
    rmSync(loopFile, { force: true });
  }
}

function kindRow(
  kind: string,
  slowest: number[],
  p99s: number[],
  windows: [number, number][],
  probes: Probe[],
  seconds: Second[],
): Row {
  const during = probes.filter((p) => windows.some(([from, to]) => p.start < to && p.start + p.ms > from));
  const failed = during.filter((p) => p.ms === Number.POSITIVE_INFINITY).length;
  const health = during.map((p) => p.ms).filter((ms) => ms !== Number.POSITIVE_INFINITY);
  const busy = seconds.filter((s) => windows.some(([from, to]) => s.at > from && s.at - 1000 < to));
  const delay = Math.max(0, ...busy.map((s) => s.delayMaxMs));
  const block = Math.max(0, ...busy.map((s) => s.cpuInGapMaxMs));
  const [hp50, hp99, hmax] = [percentile(health, 50), percentile(health, 99), Math.max(0, ...health)];
  const worstP99 = Math.max(...p99s);
  const slow = median(slowest);
  const pass = failed === 0 && hp99 <= 50 && hmax <= 100 && Math.max(...slowest) <= 100 && block <= 20 && worstP99 <= 5;
  return {
    metric: `burst: ${kind}, ${CONCURRENT} concurrent x ${ROUNDS}`,
    value: `slowest of ${CONCURRENT} ${fmt(slow, 0)} ms (max ${fmt(Math.max(...slowest), 0)})`,
    baseline: '-',
    ratio: `health p50 ${fmt(hp50, 0)} / p99 ${fmt(hp99, 0)} / max ${fmt(hmax, 0)} ms`,
    target: TARGET,
    pass,
    note:
      `${health.length} health probes in flight during the bursts (${failed} failed); ` +
      `longest event-loop delay ${fmt(delay, 0)} ms ` +
      `wall, longest block ${fmt(block, 0)} ms CPU; ` +
      `sequential p99 per filter ${p99s.map((p) => fmt(p, 2)).join(' / ')} ms`,
  };
}
