/**
 * Every store at its default cap, in a process with the heap a 512 MiB container gives Node
 * (--max-old-space-size=384): bench/memory-server.mjs fills all but deliveries through the
 * store ports, deliveries are filled here by batch sends, then one read of each kind builds
 * the indexes reads build. The process must stay up with its RSS at most 512 MiB; the row
 * gives the peak RSS, the peak heap used and the live heap after a full collection.
 * A second row fills the deliveries as realtime sends of one instead (the server does,
 * through the store port: a million sends over HTTP take minutes), the heavier kind per
 * delivery: each keeps its own notification id, time, user and variables.
 */
import { fillDeliveries } from './store-scale.js';
import { API_HEADERS, now, rssOf, sleep, spawnServer, type Child } from '../util.js';
import { fmt, type Row } from './types.js';

const HEAP_FLAGS = ['--expose-gc', '--max-old-space-size=384'];
const LIMIT_MIB = 512;
const METRICS = {
  batch: 'every store at its default cap, --max-old-space-size=384',
  realtime: 'the same, deliveries of realtime sends',
} as const;
type DeliveryKind = keyof typeof METRICS;
const TARGETS = {
  batch: `RSS <= ${LIMIT_MIB} MiB, no heap exhaustion`,
  // Not one of the targets: how far a realtime-only load is from them (docs/performance.md, Memory).
  realtime: 'no heap exhaustion (RSS reported)',
} as const;
const mib = (bytes: number) => bytes / 2 ** 20;

interface Memory {
  rss: number;
  heapUsed: number;
  arrayBuffers: number;
  /** heapUsed + arrayBuffers after the collection. */
  kept: number;
  peakHeapUsed: number;
  fillMs: number;
  bytesPerRecord: Record<string, number>;
  stats: Record<string, number>;
}

/** Asks the server to collect and report (SIGUSR2, answered with a `memory {…}` line). */
function memoryOf(server: Child): Promise<Memory> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const line = /memory (\{.*\})\n/.exec(text)?.[1];
      if (!line) return;
      server.process.stdout!.off('data', onData);
      resolve(JSON.parse(line) as Memory);
    };
    server.process.stdout!.on('data', onData);
    server.process.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    server.process.kill('SIGUSR2');
  });
}

async function get(url: string): Promise<void> {
  const res = await fetch(url, { headers: url.includes('/api/') ? API_HEADERS : {} });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
}

/** One read of each kind that builds or walks an index. */
async function readEachKind(url: string): Promise<void> {
  const campaigns = (await (await fetch(`${url}/__inspect/campaigns?limit=3`)).json()) as { items: { id: string }[] };
  for (let i = 0; i < 5; i++) {
    await get(`${url}/__inspect/deliveries?userId=user-${i * 7919}`);
    await get(`${url}/api/analytics/users/user-${i * 7919}`);
    await get(`${url}/__inspect/notifications?appId=bench-app&mode=realtime`);
    await get(`${url}/__inspect/requests?appId=bench-app&method=GET`);
    for (const { id } of campaigns.items) await get(`${url}/__inspect/campaigns/${id}/recipients?status=failed`);
  }
}

export async function memoryAtCaps(): Promise<Row[]> {
  return [...(await memoryWith('batch')), ...(await memoryWith('realtime'))];
}

async function memoryWith(deliveries: DeliveryKind): Promise<Row[]> {
  const METRIC = METRICS[deliveries];
  const TARGET = TARGETS[deliveries];
  const started = now();
  let server: Child;
  try {
    server = await spawnServer(['bench/memory-server.mjs'], HEAP_FLAGS, 600_000, {
      BENCH_MEMORY_DELIVERIES: deliveries,
    });
  } catch (error) {
    // Out of heap while filling: the row fails (and `npm run bench` with it).
    return [
      {
        metric: METRIC,
        value: 'died',
        baseline: '-',
        ratio: '-',
        target: TARGET,
        pass: false,
        note: String(error).slice(0, 400),
      },
    ];
  }
  let stderr = '';
  server.process.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  try {
    const health = (await (await fetch(`${server.url}/__health`)).json()) as {
      retention: { deliveries: { max: number } };
    };
    const beforeDeliveries = await memoryOf(server);
    if (deliveries === 'batch') await fillDeliveries(server, health.retention.deliveries.max);
    await readEachKind(server.url);
    await sleep(2000); // the delivery indexes are built in background slices after the sends
    const memory = await memoryOf(server);
    const perRecord =
      deliveries === 'batch'
        ? {
            ...memory.bytesPerRecord,
            // The journal's entries of the sends included: it is at its text cap either way.
            delivery: Math.round((memory.kept - beforeDeliveries.kept) / health.retention.deliveries.max),
          }
        : memory.bytesPerRecord;
    const seconds = (now() - started) / 1000;
    const { peakMb } = rssOf(server.pid);
    const alive = server.process.exitCode === null;
    const kept = Object.entries(memory.stats)
      .filter(([kind]) => !kind.startsWith('dropped'))
      .map(([kind, n]) => `${kind} ${n.toLocaleString('en')}`)
      .join(', ');
    return [
      {
        metric: METRIC,
        value: `peak RSS ${fmt(peakMb, 0)} MB`,
        baseline: '-',
        ratio: `heap peak ${fmt(mib(memory.peakHeapUsed), 0)} MiB, live ${fmt(mib(memory.heapUsed), 0)} MiB`,
        target: TARGET,
        pass: alive && (deliveries === 'realtime' || peakMb * 1e6 <= LIMIT_MIB * 2 ** 20),
        note:
          `kept: ${kept}; live heap after a full collection ${fmt(mib(memory.heapUsed), 0)} MiB plus ` +
          `${fmt(mib(memory.arrayBuffers), 0)} MiB of typed arrays, RSS then ${fmt(mib(memory.rss), 0)} MiB; ` +
          `bytes per record (heap and typed arrays, indexes included): ` +
          `${Object.entries(perRecord)
            .map(([kind, bytes]) => `${kind} ${bytes}`)
            .join(', ')}; ` +
          `stores but deliveries filled in ${fmt(memory.fillMs / 1000, 1)} s, ${fmt(seconds, 0)} s in all`,
      },
    ];
  } catch (error) {
    const died = server.process.exitCode !== null;
    const note = `${died ? 'the server died: ' : ''}${String(error)} ${stderr}`.slice(0, 600);
    return [
      { metric: METRIC, value: died ? 'died' : 'failed', baseline: '-', ratio: '-', target: TARGET, pass: false, note },
    ];
  } finally {
    await server.stop();
  }
}
