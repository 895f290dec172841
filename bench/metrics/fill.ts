/**
 * Every store filled to its default cap over HTTP, as an app would fill it, in an emulator with
 * the heap a 512 MiB container gives Node (--max-old-space-size=384): 1,000 campaigns; ten
 * 100,000-row uploads, each sent; 100,000 realtime sends; 100 batch sends of 10,000 targets;
 * 1,000,000 analytics-recording calls; then 10,000 realtime sends whose bodies are ~6 KB, which
 * leave the journal holding 10,000 entries of that size. bench/memory-server.mjs fills the same
 * stores through their ports (faster, and it can weigh each kind); this one goes through
 * everything a request goes through, so the peak is the one a container would see.
 * Meanwhile a separate process asks /__health every 50 ms and the emulator's RSS is read
 * every 2 s. Rows: the peak RSS, and /__health's p99 and slowest answer while it ran.
 */
import autocannon from 'autocannon';
import { batchBody, makeFaker, userIds } from '../data.js';
import {
  API_HEADERS,
  expectStatus,
  now,
  percentile,
  postJson,
  rssOf,
  SEED,
  sleep,
  startEmulatorChild,
  startHealthProbe,
  type Child,
  type Probe,
} from '../util.js';
import { createCampaign, recipientsCsv, upload } from './csv-data.js';
import { fmt, type Row } from './types.js';

const RSS_LIMIT_MIB = 512;
const HEALTH_P99_MS = 50;
const HEALTH_MAX_MS = 100;
const PROBE_EVERY_MS = 50;
const RSS_EVERY_MS = 2_000;
const CAMPAIGNS = 1_000;
const UPLOADS = 10;
const UPLOAD_ROWS = 100_000;
const REALTIME_SENDS = 100_000;
const BATCH_SENDS = 100;
const BATCH_TARGETS = 10_000;
const ANALYTICS_CALLS = 1_000_000;
const JOURNAL_ENTRIES = 10_000;
/** Characters of the one template variable that makes a journal entry's body ~6 KB. */
const JOURNAL_PAD = 6_000;
/** Keep-alive connections of the realtime, analytics and journal steps: bounded, so the probe still gets answers. */
const CONNECTIONS = 32;
const METRIC = 'default-cap fill over HTTP, --max-old-space-size=384';

/** `amount` POSTs to `path` over `CONNECTIONS` keep-alive connections, the n-th with `bodyOf(n)`. */
async function many(url: string, path: string, amount: number, bodyOf: (n: number) => string): Promise<void> {
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    requests: [
      {
        method: 'POST',
        path,
        headers: { ...API_HEADERS },
        setupRequest: (request) => ({ ...request, body: bodyOf(n++) }),
      },
    ],
  });
  if (result.non2xx || result.errors || result.timeouts)
    throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
}

async function waitSent(url: string, id: string): Promise<void> {
  for (;;) {
    const json = (await (await fetch(`${url}/__inspect/campaigns/${id}`)).json()) as { status?: string };
    if (json.status === 'sent') return;
    if (json.status === 'failed') throw new Error(`campaign ${id} failed`);
    await sleep(50);
  }
}

const realtime = (userId: string, name: string) =>
  JSON.stringify({ template: { key: 'welcome-message', variables: { name } }, targets: [userId], mode: 'realtime' });

/** A step of the fill: its name, seconds (NaN: unfinished) and start (ms since the epoch, as probes are timed). */
type Step = [name: string, seconds: number, startedAt: number];

/** Each step in turn; `took` gets each step as it starts, its seconds as it ends. */
async function fill(url: string, took: Step[]): Promise<void> {
  const steps: [string, () => Promise<void>][] = [];
  const campaignIds: string[] = [];
  steps.push([
    `${CAMPAIGNS} campaigns`,
    async () => {
      for (let i = 0; i < CAMPAIGNS; i++) campaignIds.push(await createCampaign(url, `fill-${i}`));
    },
  ]);
  steps.push([
    `${UPLOADS} uploads of ${UPLOAD_ROWS.toLocaleString('en')} rows, each sent`,
    async () => {
      const csv = recipientsCsv(UPLOAD_ROWS);
      let sent = 0;
      for (const id of campaignIds.slice(0, UPLOADS)) {
        await upload(url, id, csv, UPLOAD_ROWS);
        expectStatus('campaign send', await postJson(`${url}/api/campaigns/${id}/send`, {}));
        await waitSent(url, id);
        // Where a fill that dies got to: this step's entry in `took` names the uploads sent so far.
        took.at(-1)![0] = `${UPLOADS} uploads of ${UPLOAD_ROWS.toLocaleString('en')} rows (${++sent} sent)`;
      }
    },
  ]);
  steps.push([
    `${REALTIME_SENDS.toLocaleString('en')} realtime sends`,
    () => many(url, '/api/notifications/send', REALTIME_SENDS, (n) => realtime(`user-${n}`, 'Ada')),
  ]);
  steps.push([
    `${BATCH_SENDS} batch sends of ${BATCH_TARGETS.toLocaleString('en')}`,
    async () => {
      const faker = makeFaker(SEED + 7);
      for (let i = 0; i < BATCH_SENDS; i++)
        expectStatus(
          'batch send',
          await postJson(`${url}/api/notifications/send`, batchBody(faker, userIds(faker, BATCH_TARGETS))),
        );
    },
  ]);
  const eventTypes = ['delivered', 'viewed', 'clicked'];
  steps.push([
    `${ANALYTICS_CALLS.toLocaleString('en')} analytics calls`,
    () =>
      many(url, '/api/analytics/events', ANALYTICS_CALLS, (n) =>
        JSON.stringify({
          campaignId: campaignIds[n % campaignIds.length],
          // One event per (campaign, user, type) is kept: a user per call makes every call a new event.
          userId: `user-${n}`,
          channelType: 'in_app',
          eventType: eventTypes[n % 3],
        }),
      ),
  ]);
  const pad = 'x'.repeat(JOURNAL_PAD);
  steps.push([
    `${JOURNAL_ENTRIES.toLocaleString('en')} ~6 KB journal entries`,
    () => many(url, '/api/notifications/send', JOURNAL_ENTRIES, (n) => realtime(`user-${n}`, `${n}${pad}`)),
  ]);
  for (const [name, run] of steps) {
    process.stderr.write(`bench: fill: ${name}…\n`);
    const started = now();
    const step: Step = [name, Number.NaN, performance.timeOrigin + started];
    took.push(step);
    await run();
    step[1] = (now() - started) / 1000;
  }
}

/** The five slowest probes, each with the step it was asked during: where to look first. */
function slowestFive(probes: readonly Probe[], took: readonly Step[]): string {
  const five = [...probes].sort((a, b) => b.ms - a.ms).slice(0, 5);
  return `slowest five: ${five.map((p) => `${fmt(p.ms, 0)} ms (${stepAt(took, p.start)})`).join(', ')}`;
}

/** The step under way at `time` (ms since the epoch). */
function stepAt(took: readonly Step[], time: number): string {
  return took.findLast(([, , startedAt]) => startedAt <= time)?.[0] ?? 'before the fill';
}

interface Retention {
  retention: Record<string, { stored: number; max: number }>;
}

export async function fillOverHttp(): Promise<Row[]> {
  const started = now();
  const emulator: Child = await startEmulatorChild([], ['--max-old-space-size=384']);
  const rss: number[] = [];
  /** When each RSS sample was read, ms since the epoch (as the steps' starts). */
  const rssAt: number[] = [];
  const sampler = setInterval(() => {
    if (emulator.process.exitCode !== null) return;
    rss.push(rssOf(emulator.pid).rssMb);
    rssAt.push(performance.timeOrigin + now());
  }, RSS_EVERY_MS);
  const probe = await startHealthProbe(`${emulator.url}/__health`, PROBE_EVERY_MS);
  let stderr = '';
  const said = () => stderr.trim().split('\n').filter(Boolean).slice(0, 3).join(' | ');
  // The start of what it prints: an out-of-heap death's reason comes first, its stack after.
  emulator.process.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(0, 1500)));
  // A request in flight when the emulator dies may never settle: its exit ends the fill.
  const exited = new Promise<never>((_, reject) =>
    emulator.process.once('exit', (code, signal) =>
      reject(new Error(`the emulator exited (${code ?? signal}): ${said()}`)),
    ),
  );
  exited.catch(() => undefined); // awaited in the race below; a later rejection is not unhandled
  const took: Step[] = [];
  let failure: string | null = null;
  let stored = '';
  try {
    await Promise.race([fill(emulator.url, took), exited]);
    const health = (await (await fetch(`${emulator.url}/__health`)).json()) as Retention;
    stored = Object.entries(health.retention)
      .map(([kind, { stored: n, max }]) => `${kind} ${n.toLocaleString('en')}/${max.toLocaleString('en')}`)
      .join(', ');
  } catch (error) {
    // A reset connection is usually the emulator dying: wait for its exit and say why.
    await Promise.race([exited, sleep(2000)]).catch(() => undefined);
    failure = `${String(error)}; emulator stderr: ${said()}`.slice(0, 900);
  }
  clearInterval(sampler);
  // Killed by a signal (out of heap: SIGABRT), exitCode stays null.
  const alive = emulator.process.exitCode === null && emulator.process.signalCode === null;
  // VmHWM: the kernel's own peak, between the 2 s samples too (kB / 1024: MiB).
  const peak = alive ? rssOf(emulator.pid).peakMb : Math.max(...rss);
  const probed = await probe.stop();
  const probes = probed.map((p) => p.ms);
  // Child.stop() waits for an exit that a process already killed by a signal never repeats.
  if (alive) await emulator.stop();
  const p99 = percentile(probes, 99);
  const max = Math.max(...probes);
  const slowest = slowestFive(probed, took);
  const highest = Math.max(...rss);
  const sampledPeak = `${fmt(highest, 0)} MiB (${stepAt(took, rssAt[rss.indexOf(highest)]!)})`;
  const failed = probes.filter((ms) => !Number.isFinite(ms)).length;
  const steps = took.map(([name, s]) => `${name} ${Number.isNaN(s) ? 'unfinished' : `${fmt(s, 0)} s`}`).join(', ');
  const state = failure ? `${alive ? 'FAILED' : 'the emulator DIED'}: ${failure}; ` : '';
  const common = `${state}${fmt((now() - started) / 1000, 0)} s in all (${steps})`;
  return [
    {
      metric: `${METRIC}: peak RSS`,
      value: alive ? `${fmt(peak, 0)} MiB` : 'died',
      baseline: '-',
      ratio: '-',
      target: `<= ${RSS_LIMIT_MIB} MiB`,
      pass: alive && failure === null && peak <= RSS_LIMIT_MIB,
      note: `${common}; kept: ${stored || 'n/a'}; RSS every 2 s peaked at ${sampledPeak}`,
    },
    {
      metric: `${METRIC}: /__health p99`,
      value: `${fmt(p99, 0)} ms`,
      baseline: '-',
      ratio: '-',
      target: `<= ${HEALTH_P99_MS} ms`,
      pass: failure === null && p99 <= HEALTH_P99_MS,
      note: `${probes.length} probes, one every ${PROBE_EVERY_MS} ms after the last answer, ${failed} failed`,
    },
    {
      metric: `${METRIC}: slowest /__health`,
      value: Number.isFinite(max) ? `${fmt(max, 0)} ms` : 'a probe failed',
      baseline: '-',
      ratio: '-',
      target: `<= ${HEALTH_MAX_MS} ms`,
      pass: failure === null && max <= HEALTH_MAX_MS,
      note: `p90 ${fmt(percentile(probes, 90), 0)} ms, p99.9 ${fmt(percentile(probes, 99.9), 0)} ms; ${slowest}`,
    },
  ];
}
