/**
 * A 100,000-recipient campaign: time from POST …/send to status `sent` (polling
 * /__inspect/campaigns/{id}), while a steady realtime-send load runs alongside and its p99
 * latency is recorded.
 */
import autocannon from 'autocannon';
import { API_HEADERS, median, now, RUNS, SEED, sleep, startEmulatorChild, postJson, expectStatus } from '../util.js';
import { makeFaker, realtimeBody } from '../data.js';
import { createCampaign, recipientsCsv, upload } from './csv-data.js';
import { fmt, type Row } from './types.js';

const ROWS = 100_000;
/** The target for send -> sent. */
const TARGET_MS = 150;
/** The concurrent load: 4 connections, 400 requests/s overall (a busy test suite, not a flood). */
const LOAD = { connections: 4, overallRate: 400 };

async function waitSent(url: string, id: string): Promise<string> {
  for (;;) {
    const res = await fetch(`${url}/__inspect/campaigns/${id}`);
    const json = (await res.json()) as { status?: string; campaign?: { status?: string } };
    const status = json.status ?? json.campaign?.status;
    if (status === 'sent' || status === 'failed') return status;
    await sleep(10);
  }
}

export async function campaignSend(): Promise<Row[]> {
  const csv = recipientsCsv(ROWS);
  const body = realtimeBody(makeFaker(SEED + 4));
  const emulator = await startEmulatorChild();
  const times: number[] = [];
  const p99s: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      await fetch(`${emulator.url}/__inspect`, { method: 'DELETE' }).then((r) => r.arrayBuffer());
      const id = await createCampaign(emulator.url, `campaign-${i}`);
      await upload(emulator.url, id, csv, ROWS);
      let instance!: autocannon.Instance;
      const result = new Promise<autocannon.Result>((resolve, reject) => {
        instance = autocannon(
          {
            url: `${emulator.url}/api/notifications/send`,
            method: 'POST',
            headers: { ...API_HEADERS },
            body,
            duration: 60,
            ...LOAD,
          },
          (error, r) => (error ? reject(error) : resolve(r)),
        );
      });
      await sleep(300);
      const started = now();
      const res = await postJson(`${emulator.url}/api/campaigns/${id}/send`, {});
      expectStatus('campaign send', res);
      const status = await waitSent(emulator.url, id);
      times.push(now() - started);
      await sleep(200);
      instance.stop();
      const load = await result;
      if (status !== 'sent') throw new Error(`campaign ended "${status}"`);
      if (load.non2xx) throw new Error(`concurrent realtime sends: ${load.non2xx} non-2xx answers`);
      p99s.push(load.latency.p99);
    }
  } finally {
    await emulator.stop();
  }
  const t = median(times);
  const p99 = median(p99s);
  return [
    {
      metric: `campaign, ${ROWS.toLocaleString('en')} recipients: send -> sent`,
      value: `${fmt(t, 0)} ms`,
      baseline: '-',
      ratio: '-',
      target: `<= ${TARGET_MS} ms`,
      pass: t <= TARGET_MS,
      note:
        `runs ${times.map((v) => fmt(v, 0)).join('/')} ms, ` +
        `with ${LOAD.connections} connections sending realtime at ${LOAD.overallRate} req/s`,
    },
    {
      metric: 'realtime send p99 during that campaign',
      value: `${fmt(p99, 0)} ms`,
      baseline: '-',
      ratio: '-',
      target: '< 100 ms',
      pass: p99 < 100,
      note: `p99 per run ${p99s.map((v) => fmt(v, 0)).join('/')} ms`,
    },
  ];
}
