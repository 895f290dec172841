/**
 * Every store at its default cap, in a child with the heap a 512 MiB container gives Node
 * (--max-old-space-size=384): bench/full-store-server.mjs fills all but deliveries through
 * the store ports, deliveries are filled here by batch sends. Then peak RSS, and for each
 * inspect kind: 100 concurrent queries while /__health is probed every 10 ms (health p99 and
 * max, the slowest of the 100), and each documented filter's p99 over sequential queries.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillDeliveries } from './store-scale.js';
import { API_HEADERS, percentile, now, QUICK, rssOf, sleep, spawnServer, type Child } from '../util.js';
import { fmt, type Row } from './types.js';

const HEAP_FLAGS = ['--expose-gc', '--max-old-space-size=384'];
/** Where the child writes what it measured while filling (FULL_STORE_REPORT). */
const STARTUP_LOG = join(tmpdir(), `full-stores-${process.pid}.json`);

/** Each inspect kind's documented filters (a query each), user ids and campaigns filled by the child. */
function kinds(campaignId: string): Record<string, ((i: number) => string)[]> {
  const user = (i: number) => `user-${(i * 7919) % 100_000}`;
  const since = new Date(Date.now() - 30 * 60_000).toISOString();
  return {
    notifications: [
      () => '/__inspect/notifications?appId=bench-app&mode=realtime',
      (i) => `/__inspect/notifications?templateKey=template-${i % 5}`,
      (i) => `/__inspect/notifications?appId=bench-app-2&tag=tag-${i % 7}`,
      (i) => `/__inspect/notifications?notificationId=notif_${(0x10000000 + i).toString(16).padStart(24, '0')}`,
      () => `/__inspect/notifications?mode=batch&since=${since}`,
    ],
    requests: [
      () => '/__inspect/requests?appId=bench-app&method=GET',
      () => '/__inspect/requests?path=/api/notifications/send&status=400',
      () => '/__inspect/requests?errorCode=ERR_BAD_REQUEST',
      () => '/__inspect/requests?scenario=flaky',
      () => `/__inspect/requests?since=${since}`,
    ],
    deliveries: [
      (i) => `/__inspect/deliveries?userId=${user(i)}`,
      (i) => `/__inspect/deliveries?appId=bench-app&userId=${user(i)}&status=sent`,
      () => '/__inspect/deliveries?tag=bench&limit=20',
    ],
    campaigns: [
      () => '/__inspect/campaigns?status=sent',
      () => '/__inspect/campaigns?appId=bench-app',
      () => `/__inspect/campaigns/${campaignId}/recipients?status=failed`,
    ],
    'analytics users': [(i) => `/api/analytics/users/${user(i)}`],
  };
}

const mib = (bytes: number) => `${fmt(bytes / 2 ** 20, 0)} MiB`;

async function get(url: string): Promise<number> {
  const started = now();
  const res = await fetch(url, { headers: url.includes('/api/') ? API_HEADERS : {} });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return now() - started;
}

/** Probes /__health every 10 ms until stopped; the latencies. */
function probeHealth(url: string): () => Promise<number[]> {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      times.push(await get(`${url}/__health`).catch(() => Number.POSITIVE_INFINITY));
      await sleep(10);
    }
  })();
  return async () => {
    running = false;
    await loop;
    return times;
  };
}

export async function fullStores(): Promise<Row[]> {
  process.env.FULL_STORE_REPORT = STARTUP_LOG;
  const emulator: Child = await spawnServer(['bench/full-store-server.mjs'], HEAP_FLAGS, 300_000);
  let stderr = '';
  /** What the child printed while filling: heap per record, and each filter's p99 in the store itself. */
  const startup = readFileSync(STARTUP_LOG, 'utf8');
  emulator.process.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  emulator.process.once('exit', (code) => process.stderr.write(`full-store server exited (${code}): ${stderr}\n`));
  try {
    const health0 = (await (await fetch(`${emulator.url}/__health`)).json()) as {
      retention: { deliveries: { max: number } };
    };
    await fillDeliveries(emulator, health0.retention.deliveries.max);
    await sleep(2000); // the delivery indexes are built in background slices after the sends
    const campaigns = (await (await fetch(`${emulator.url}/__inspect/campaigns?limit=1`)).json()) as {
      items: { id: string }[];
    };
    const rows: Row[] = [];
    for (const [kind, filters] of Object.entries(kinds(campaigns.items[0]!.id))) {
      const stop = probeHealth(emulator.url);
      await sleep(100);
      const burst = await Promise.all(
        Array.from({ length: 100 }, (_, i) => get(`${emulator.url}${filters[i % filters.length]!(i)}`)),
      );
      await sleep(50);
      const health = await stop();
      const slowest = Math.max(...burst);
      const hp99 = percentile(health, 99);
      const hmax = Math.max(...health);
      const p99s: number[] = [];
      for (const filter of filters) {
        const times: number[] = [];
        for (let i = 0; i < (QUICK ? 50 : 200); i++) times.push(await get(`${emulator.url}${filter(i)}`));
        p99s.push(percentile(times, 99));
      }
      const worstP99 = Math.max(...p99s);
      const pass = hp99 <= 50 && hmax <= 100 && slowest <= 100 && worstP99 <= 5;
      rows.push({
        metric: `${kind}: 100 concurrent queries on full stores`,
        value: `slowest ${fmt(slowest, 0)} ms, filter p99 ${fmt(worstP99, 2)} ms`,
        baseline: '-',
        ratio: `health p99 ${fmt(hp99, 0)} / max ${fmt(hmax, 0)} ms`,
        target: 'health p99 <= 50, max <= 100, slowest <= 100, p99 <= 5 ms',
        pass,
        note: `p99 per filter: ${p99s.map((p) => fmt(p, 2)).join(' / ')} ms; ${health.length} health probes`,
      });
    }
    const { peakMb } = rssOf(emulator.pid);
    const memory = (await (await fetch(`${emulator.url}/__health`)).json()) as {
      memory: { heapUsedBytes: number; heapLimitBytes: number };
    };
    rows.push({
      metric: 'every store at its default cap, --max-old-space-size=384: peak RSS',
      value: `${fmt(peakMb, 0)} MB`,
      baseline: '-',
      ratio: '-',
      target: '<= 512 MiB, no heap exhaustion',
      pass: peakMb <= 512 && emulator.process.exitCode === null,
      note: `${startup}; heap at the end ${mib(memory.memory.heapUsedBytes)} of ${mib(memory.memory.heapLimitBytes)}`,
    });
    return rows;
  } finally {
    await emulator.stop();
    rmSync(STARTUP_LOG, { force: true });
  }
}
