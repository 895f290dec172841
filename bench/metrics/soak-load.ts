/**
 * What the soak (soak.ts) runs beside its steady load: the stores prefilled to the soak's
 * caps, a 5,000-row campaign per app every 2 s, a burst of 100 queries of one inspect kind
 * after another, an SSE reader of every event type and 10 waitFor long-polls.
 */
import { now, postJson, sleep, startReporter } from '../util.js';
import { createCampaign, upload } from './csv-data.js';

export const SOAK_APPS: readonly string[] = ['soak-a', 'soak-b'];
/** Every type of event the stream sends: a reader of each must see one. */
export const EVENT_TYPES = ['delivery', 'campaign', 'request', 'notification'];

/** The soak's retention caps: low, so that a minute of load passes each of them many times. */
export const SOAK_CAPS = {
  deliveries: 50_000,
  notifications: 5_000,
  journal: 5_000,
  campaigns: 10,
  recipients: 30_000,
  analyticsEvents: 5_000,
};

export const capFlags = (): string[] => [
  ...['--max-deliveries', String(SOAK_CAPS.deliveries), '--max-notifications', String(SOAK_CAPS.notifications)],
  ...['--max-journal', String(SOAK_CAPS.journal), '--max-campaigns', String(SOAK_CAPS.campaigns)],
  ...['--max-recipients', String(SOAK_CAPS.recipients)],
  ...['--max-analytics-events', String(SOAK_CAPS.analyticsEvents)],
];

const sendBody = (targets: string[]) =>
  JSON.stringify({
    template: { key: 'welcome-message', variables: { name: 'Ada' } },
    targets,
    mode: targets.length > 1 ? 'batch' : 'realtime',
  });

/** `count` calls of `call`, `width` at a time. */
async function inParallel(count: number, width: number, call: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await call(next++);
    }),
  );
}

function expectOk(what: string, res: { status: number; json: unknown }): void {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
}

/** A campaign of `csv` for `appid`, uploaded and sent: its id. */
async function campaignSent(url: string, appid: string, name: string, csv: Uint8Array, rows: number) {
  const id = await createCampaign(url, name, appid);
  await upload(url, id, csv, rows, appid);
  expectOk('campaign send', await postJson(`${url}/api/campaigns/${id}/send`, {}, appid));
  return id;
}

/** Every store to the soak's cap, through the API as users fill them: the time it took. */
export async function prefill(url: string, csv: Uint8Array, rows: number): Promise<number> {
  const started = now();
  const app = (i: number) => SOAK_APPS[i % 2]!;
  const batch = Array.from({ length: 10_000 }, (_, i) => `fill-user-${i}`);
  for (let i = 0; i < SOAK_CAPS.deliveries / 10_000; i++)
    expectOk('fill batch', await postJson(`${url}/api/notifications/send`, sendBody(batch), app(i)));
  // Realtime sends until the notifications (and the journal) are at their caps.
  await inParallel(SOAK_CAPS.notifications, 20, async (i) => {
    expectOk('fill send', await postJson(`${url}/api/notifications/send`, sendBody([`user-${i % 500}`]), app(i)));
  });
  const campaigns: { id: string; appid: string }[] = [];
  for (let i = 0; i < SOAK_CAPS.recipients / rows; i++)
    campaigns.push({ id: await campaignSent(url, app(i), `fill-${i}`, csv, rows), appid: app(i) });
  await inParallel(SOAK_CAPS.analyticsEvents, 20, async (i) => {
    const { id, appid } = campaigns[i % campaigns.length]!;
    const event = { campaignId: id, userId: `user-${i}`, channelType: 'in_app', eventType: 'delivered' };
    expectOk('fill event', await postJson(`${url}/api/analytics/events`, event, appid));
  });
  return now() - started;
}

export interface SideLoads {
  /** Stops every loop; what they did. */
  stop(): Promise<{
    campaigns: number;
    sseBytes: number;
    sseTypes: Map<string, number>;
    bursts: Map<string, number[]>;
  }>;
}

/** Starts the campaign loops, the bursts, the SSE reader and the long-polls; `problems` collects what went wrong. */
export function startSideLoads(url: string, csv: Uint8Array, rows: number, problems: string[]): SideLoads {
  let running = true;
  const stopped = new Promise<void>((resolve) => {
    const check = setInterval(() => !running && (clearInterval(check), resolve()), 50);
  });
  // A 5,000-row campaign every 2 s for each app.
  const campaignLoops = SOAK_APPS.map(async (appid) => {
    let n = 0;
    while (running) {
      await campaignSent(url, appid, `soak-${appid}-${n}`, csv, rows).catch((error: Error) =>
        problems.push(`campaign: ${error.message}`),
      );
      n++;
      await Promise.race([sleep(2000), stopped]);
    }
    return n;
  });
  // A burst of 100 queries of one kind every 2 s, kind after kind, from its own process.
  const bursts = startReporter<{ slowest: Record<string, number[]>; failures: string[] }>('bench/burst-client.mjs', [
    url,
  ]);
  // An SSE reader of every event type, from its own process.
  const stream = startReporter<{ bytes: number; types: Record<string, number> }>('bench/stream-client.mjs', [url]);
  // 10 long-polls that time out (408) and start again.
  const longPolls = Array.from({ length: 10 }, async (_, i) => {
    while (running) {
      const res = await fetch(`${url}/__inspect/deliveries?userId=never-${i}&waitFor=1&timeoutMs=2000`);
      await res.arrayBuffer();
      if (res.status !== 408) problems.push(`long-poll answered ${res.status}`);
    }
  });
  return {
    async stop() {
      running = false;
      const campaigns = (await Promise.all(campaignLoops)).reduce((a, b) => a + b, 0);
      await Promise.all(longPolls);
      const { slowest, failures } = await bursts.stop();
      problems.push(...failures);
      const { bytes, types } = await stream.stop();
      const sseTypes = new Map(Object.entries(types));
      return { campaigns, sseBytes: bytes, sseTypes, bursts: new Map(Object.entries(slowest)) };
    },
  };
}
