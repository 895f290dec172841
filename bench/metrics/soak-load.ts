/**
 * What the soak (soak.ts) runs beside its steady load: the stores prefilled to the soak's
 * caps, a 5,000-row campaign per app every 2 s, a burst of 100 queries of one inspect kind
 * after another, an SSE reader of every event type and 10 waitFor long-polls.
 */
import { API_HEADERS, now, postJson, sleep } from '../util.js';
import { createCampaign, upload } from './csv-data.js';

export const SOAK_APPS: readonly string[] = ['soak-a', 'soak-b'];

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

/** Each inspect kind's burst: the paths of its 100 queries (asked when the burst starts). */
async function burstKinds(url: string): Promise<Record<string, string[]>> {
  const latest = (await (await fetch(`${url}/__inspect/campaigns?limit=1&order=desc`)).json()) as {
    items: { id: string }[];
  };
  const campaign = latest.items[0]?.id ?? 'none';
  const paths = (...list: string[]) => Array.from({ length: 100 }, (_, i) => list[i % list.length]!);
  return {
    deliveries: paths(
      '/__inspect/deliveries?appId=soak-a&status=sent',
      '/__inspect/deliveries?userId=user-3&order=desc',
      '/__inspect/deliveries?templateKey=welcome-message&offset=500',
      '/__inspect/deliveries?appId=soak-b&mode=batch&order=desc&offset=2000',
    ),
    'delivery-stats': paths('/__inspect/delivery-stats', '/__inspect/delivery-stats?appId=soak-b&mode=realtime'),
    notifications: paths(
      '/__inspect/notifications?appId=soak-a&mode=realtime&order=desc',
      '/__inspect/notifications?mode=batch',
    ),
    requests: paths(
      '/__inspect/requests?appId=soak-b&method=POST',
      '/__inspect/requests?path=/api/notifications/send&status=200&offset=100',
      '/__inspect/requests?bodyContains=fill-user-9999',
    ),
    campaigns: paths(
      '/__inspect/campaigns?appId=soak-a',
      '/__inspect/campaigns?status=sent&order=desc',
      `/__inspect/campaigns/${campaign}/recipients?status=sent&offset=100`,
    ),
    apps: paths('/__apps'),
    'analytics users': paths('/api/analytics/users/user-3', '/api/analytics/users/user-250'),
  };
}

export interface SideLoads {
  /** Stops every loop; what they did. */
  stop(): Promise<{ campaigns: number; sseBytes: number; sseTypes: Map<string, number>; bursts: Map<string, number> }>;
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
  // A burst of 100 queries of one kind every 2 s, kind after kind: the slowest answer of each kind.
  const bursts = new Map<string, number>();
  const burstLoop = (async () => {
    for (let round = 0; running; round++) {
      const kinds = Object.entries(await burstKinds(url));
      const [kind, paths] = kinds[round % kinds.length]!;
      const answers = await Promise.all(
        paths.map(async (path) => {
          const started = now();
          const res = await fetch(`${url}${path}`, { headers: { ...API_HEADERS, appid: 'soak-a' } });
          await res.arrayBuffer();
          if (res.status !== 200) problems.push(`${path} answered ${res.status}`);
          return now() - started;
        }),
      );
      bursts.set(kind, Math.max(bursts.get(kind) ?? 0, ...answers));
      await Promise.race([sleep(2000), stopped]);
    }
  })();
  // An SSE reader of every event type, reading slowly: the event names it saw.
  const sseTypes = new Map<string, number>();
  const sse = (async () => {
    const res = await fetch(`${url}/__inspect/stream`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    while (running) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (const [, type] of decoder.decode(value, { stream: true }).matchAll(/^event: (\w+)$/gm))
        sseTypes.set(type!, (sseTypes.get(type!) ?? 0) + 1);
      await sleep(100);
    }
    await reader.cancel();
    return bytes;
  })();
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
      await Promise.all([burstLoop, ...longPolls]);
      return { campaigns, sseBytes: await sse, sseTypes, bursts };
    },
  };
}
