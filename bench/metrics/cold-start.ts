/**
 * Cold start: from spawning `node dist/cli.js --port 0` (default flags, file watching on) to
 * the first 200 from /__health.
 */
import { median, now, RUNS, startDefaultEmulatorChild } from '../util.js';
import { fmt, type Row } from './types.js';

async function once(): Promise<number> {
  const started = now();
  const child = await startDefaultEmulatorChild();
  try {
    for (;;) {
      const res = await fetch(`${child.url}/__health`).catch(() => undefined);
      if (res?.status === 200) {
        await res.arrayBuffer();
        return now() - started;
      }
    }
  } finally {
    await child.stop();
  }
}

export async function coldStart(): Promise<Row> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await once());
  const p50 = median(times);
  return {
    metric: 'cold start (spawn -> 200 /__health)',
    value: `${fmt(p50, 0)} ms`,
    baseline: '-',
    ratio: '-',
    target: '<= 500 ms',
    pass: p50 <= 500,
    note: `runs: ${times.map((t) => fmt(t, 0)).join('/')} ms`,
  };
}
