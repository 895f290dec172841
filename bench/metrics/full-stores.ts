/**
 * Every store at its default cap, in a child with the heap a 512 MiB container gives Node
 * (--max-old-space-size=384): bench/full-store-server.mjs fills all but deliveries through
 * the store ports, deliveries are filled here by batch sends. Then peak RSS, and the heap.
 * Bursts of inspect queries on full stores are the burst metric's (burst.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillDeliveries } from './store-scale.js';
import { rssOf, sleep, spawnServer, type Child } from '../util.js';
import { fmt, type Row } from './types.js';

const HEAP_FLAGS = ['--expose-gc', '--max-old-space-size=384'];
/** Where the child writes what it measured while filling (FULL_STORE_REPORT). */
const STARTUP_LOG = join(tmpdir(), `full-stores-${process.pid}.json`);

const mib = (bytes: number) => `${fmt(bytes / 2 ** 20, 0)} MiB`;

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
    const { peakMb } = rssOf(emulator.pid);
    const memory = (await (await fetch(`${emulator.url}/__health`)).json()) as {
      memory: { heapUsedBytes: number; heapLimitBytes: number };
    };
    const row: Row = {
      metric: 'every store at its default cap, --max-old-space-size=384: peak RSS',
      value: `${fmt(peakMb, 0)} MB`,
      baseline: '-',
      ratio: '-',
      target: '<= 512 MiB, no heap exhaustion',
      pass: peakMb <= 512 && emulator.process.exitCode === null,
      note: `${startup}; heap at the end ${mib(memory.memory.heapUsedBytes)} of ${mib(memory.memory.heapLimitBytes)}`,
    };
    return [row];
  } finally {
    await emulator.stop();
    rmSync(STARTUP_LOG, { force: true });
  }
}
