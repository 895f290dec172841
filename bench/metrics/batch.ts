/**
 * Batch send with 10,000 targets: p50 latency over HTTP vs the bare Hono route receiving
 * and JSON-parsing the same body over HTTP (the HTTP floor of any server on this stack).
 * The in-process JSON.parse + zod time is reported beside it.
 *
 * The target is checked on the first sends after a short warm-up, which on the shared
 * emulator meet the full collections of the heap the throughput runs left behind, and code
 * V8 optimised for one-target sends and now deoptimises (node --trace-deopt). The note
 * also gives both servers' p50 after 100 more sends each (steady state), so a change to the
 * send path can be told from the state of the collector.
 *
 * Two kinds of ids, one row each: `user-<n>-<6 random>`, which come in nearly ascending
 * order, and random UUIDs. Finding repeated targets costs the emulator a different amount
 * for each (src/domain/distinct-strings.ts), and apps send both. A third row, for context
 * and without a target, gives each UUID target its own variables.
 */
import { SendNotificationBodySchema } from '../../src/schemas/notifications.js';
import type { Faker } from '@faker-js/faker';
import { batchBody, makeFaker, perTargetBatchBody, userIds } from '../data.js';
import { API_HEADERS, gc, median, now, QUICK, SEED, startBaselineChild, type Child } from '../util.js';
import { fmt, type Row } from './types.js';

/** Sends into each server before the steady-state p50 (unmeasured). */
const STEADY_AFTER = 100;

function parseAndValidateMs(body: string, runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = now();
    SendNotificationBodySchema.parse(JSON.parse(body));
    times.push(now() - started);
  }
  return times;
}

/** Latencies of `runs` sequential POSTs of `body`, after `warmUp` requests whose times are dropped. */
async function postLatencies(url: string, body: string, runs: number, warmUp = 3): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < runs + warmUp; i++) {
    const started = now();
    const res = await fetch(url, { method: 'POST', headers: API_HEADERS, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    if (i >= warmUp) latencies.push(now() - started);
  }
  return latencies;
}

interface BatchKind {
  name: string;
  body: (faker: Faker) => string;
  /** Held to the target; otherwise reported for context. */
  targeted: boolean;
}

const uuids = (faker: Faker) => Array.from({ length: 10_000 }, () => faker.string.uuid());

const BATCH_KINDS: BatchKind[] = [
  { name: 'targets', body: (faker) => batchBody(faker, userIds(faker, 10_000)), targeted: true },
  { name: 'random UUID targets', body: (faker) => batchBody(faker, uuids(faker)), targeted: true },
  {
    // 10,000 contents rendered and kept instead of one: what a campaign chunk does per recipient.
    name: 'random UUID targets, variables for each',
    body: (faker) => perTargetBatchBody(faker, uuids(faker)),
    targeted: false,
  },
];

export async function batchSend(emulator: Child): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of BATCH_KINDS) rows.push(await batchSendOf(emulator, kind));
  return rows;
}

async function batchSendOf(emulator: Child, kind: BatchKind): Promise<Row> {
  const faker = makeFaker(SEED + 1);
  const body = kind.body(faker);
  const runs = QUICK ? 9 : 21;
  parseAndValidateMs(body, 5); // warm-up
  gc();
  const floor = median(parseAndValidateMs(body, runs));
  const sendUrl = `${emulator.url}/api/notifications/send`;
  const latencies = await postLatencies(sendUrl, body, runs);
  const steady = median(await postLatencies(sendUrl, body, runs, STEADY_AFTER));
  // Context, not the target: the bare Hono route answering the same body over HTTP (body
  // transfer, reading and JSON.parse, no validation) is the floor of any server on this stack.
  const baseline = await startBaselineChild();
  let bareHono: number;
  let bareSteady: number;
  try {
    bareHono = median(await postLatencies(`${baseline.url}/send`, body, runs));
    bareSteady = median(await postLatencies(`${baseline.url}/send`, body, runs, STEADY_AFTER));
  } finally {
    await baseline.stop();
  }
  const p50 = median(latencies);
  const ratio = p50 / bareHono;
  return {
    metric: `batch send, 10,000 ${kind.name} (p50)`,
    value: `${fmt(p50)} ms`,
    baseline: `${fmt(bareHono)} ms (bare Hono route, same body)`,
    ratio: `${fmt(ratio, 2)}x`,
    target: kind.targeted ? '<= 1.5x' : 'context',
    pass: kind.targeted ? ratio <= 1.5 : undefined,
    note:
      `the emulator adds ${fmt(p50 - bareHono)} ms to the bare route; ` +
      `after ${STEADY_AFTER} more sends into each: ${fmt(steady)} ms against ${fmt(bareSteady)} ms ` +
      `(${fmt(steady / bareSteady, 2)}x); JSON.parse + zod alone in process take ${fmt(floor)} ms`,
  };
}
