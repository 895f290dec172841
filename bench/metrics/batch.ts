/**
 * Batch send with 10,000 targets: p50 latency over HTTP vs the time to JSON-parse and
 * zod-validate the same body alone (in process: the pure parse/validate floor).
 */
import { SendNotificationBodySchema } from '../../src/schemas/notifications.js';
import { batchBody, makeFaker, userIds } from '../data.js';
import { API_HEADERS, gc, median, now, QUICK, SEED, startBaselineChild, type Child } from '../util.js';
import { fmt, type Row } from './types.js';

function parseAndValidateMs(body: string, runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = now();
    SendNotificationBodySchema.parse(JSON.parse(body));
    times.push(now() - started);
  }
  return times;
}

/** p50-ready latencies of `runs` sequential POSTs of `body`, after three warm-up requests. */
async function postLatencies(url: string, body: string, runs: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const started = now();
    const res = await fetch(url, { method: 'POST', headers: API_HEADERS, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    if (i >= 3) latencies.push(now() - started); // the first three warm up the JIT
  }
  return latencies;
}

export async function batchSend(emulator: Child): Promise<Row> {
  const faker = makeFaker(SEED + 1);
  const body = batchBody(faker, userIds(faker, 10_000));
  const runs = QUICK ? 9 : 21;
  parseAndValidateMs(body, 5); // warm-up
  gc();
  const floor = median(parseAndValidateMs(body, runs));
  const latencies = await postLatencies(`${emulator.url}/api/notifications/send`, body, runs);
  // Context, not the target: the bare Hono route answering the same body over HTTP (body
  // transfer, reading and JSON.parse, no validation) is the floor of any server on this stack.
  const baseline = await startBaselineChild();
  let bareHono: number;
  try {
    bareHono = median(await postLatencies(`${baseline.url}/send`, body, runs));
  } finally {
    await baseline.stop();
  }
  const p50 = median(latencies);
  const ratio = p50 / floor;
  return {
    metric: 'batch send, 10,000 targets (p50)',
    value: `${fmt(p50)} ms`,
    baseline: `${fmt(floor)} ms (JSON.parse + zod)`,
    ratio: `${fmt(ratio, 2)}x`,
    target: '<= 3x',
    pass: ratio <= 3,
    note:
      `the bare Hono route takes ${fmt(bareHono)} ms p50 for the same body over HTTP ` +
      `(${fmt(bareHono / floor, 2)}x the floor); the emulator adds ${fmt(p50 - bareHono)} ms to it`,
  };
}
