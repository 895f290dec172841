/**
 * The fuzz suite (test/fuzz) at a larger scale: FUZZ_SCALE times the sampled runs of
 * `npm test` (BENCH_FUZZ_SCALE, default 10), with the same fixed seed.
 */
import { spawnSync } from 'node:child_process';
import { now, ROOT } from '../util.js';
import { fmt, type Row } from './types.js';

export async function fuzz(): Promise<Row[]> {
  const scale = Number(process.env.BENCH_FUZZ_SCALE ?? 10);
  const started = now();
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/fuzz'], {
    cwd: ROOT,
    env: { ...process.env, FUZZ_SCALE: String(scale) },
    encoding: 'utf8',
  });
  const seconds = (now() - started) / 1000;
  const passed = run.status === 0;
  // eslint-disable-next-line no-control-regex -- strips the terminal's colour codes
  const plain = run.stdout.replace(/\x1b\[[0-9;]*m/g, '');
  const summary = /Tests\s+(.*)/.exec(plain)?.[1]?.trim() ?? 'no summary';
  return [
    {
      metric: `fuzz suite x${scale}`,
      value: passed ? 'no 5xx, envelope ok' : 'FAILED',
      baseline: '-',
      ratio: '-',
      target: 'no 5xx, process lives',
      pass: passed,
      note: `${summary} in ${fmt(seconds, 0)} s${passed ? '' : `: ${run.stdout.slice(-1500)}`}`,
    },
  ];
}
