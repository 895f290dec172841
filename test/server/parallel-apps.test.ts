/**
 * Parallel test suites on one emulator (docs/ci.md "Parallel test suites on one emulator"): eight
 * workers run at the same time against ONE server over HTTP, each on its own app. Each moves
 * its own clock to fire its own scheduled campaign and fails its own uploads with its own
 * scenario set, three rounds in a row; none sees anything of the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Campaign, type RunningEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';
import { orderCsv, uploadForm } from '../helpers/campaigns.js';

const WORKERS = 8;
const ROUNDS = 3;
const START = '2030-06-01T00:00:00.000Z';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    templates: TEST_TEMPLATES,
    watch: false,
    logLevel: 'silent',
    seed: 7,
    scenarios: [
      {
        name: 'upload-outage',
        rules: [
          {
            match: { method: 'POST', path: '/api/campaigns/upload' },
            fault: { error: 'ERR_OPERATION_FAILED' },
            times: 2,
          },
        ],
      },
    ],
  });
});
afterAll(() => emulator?.close());

/** An API call of `appId` over the socket: status and parsed body. */
async function api<T>(
  appId: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const form = body instanceof FormData;
  const res = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      appid: appId,
      apikey: 'key',
      ...(body === undefined || form ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** One worker's round: its clock, its scenario, its scheduled campaign, its deliveries. */
async function round(appId: string, n: number): Promise<void> {
  const mine = emulator.client.forApp(appId);
  await mine.reset();
  expect(await mine.clock.set(START)).toMatchObject({ now: START, scope: 'app' });
  expect(await mine.scenarios.activate(['upload-outage'])).toMatchObject({ scope: 'app' });

  const created = await api<Campaign>(appId, 'POST', '/api/campaigns', {
    name: `${appId} round ${n}`,
    templateId: 'order-confirmation',
    deliveryMode: 'batch',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const users = [`${appId}-u1`, `${appId}-u2`, `${appId}-u3`];
  // Its own outage: the first two uploads fail (times: 2 counted for this app alone), the third works.
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++)
    statuses.push(
      (await api(appId, 'POST', '/api/campaigns/upload', uploadForm(orderCsv(users), created.body.id))).status,
    );
  expect(statuses).toEqual([500, 500, 200]);

  const scheduledAt = '2030-06-01T02:00:00.000Z';
  const sent = await api<Campaign>(appId, 'POST', `/api/campaigns/${created.body.id}/send`, { scheduledAt });
  expect(sent.body.status).toBe('scheduled');
  // Other workers move their clocks meanwhile; this campaign waits for this app's clock alone.
  await mine.clock.advance(3_600_000);
  expect((await mine.campaign(created.body.id)).status).toBe('scheduled');
  await mine.clock.advance(3_600_000);
  const delivered = await mine.waitFor({ campaignId: created.body.id }, { count: 3, timeoutMs: 10_000 });
  expect(delivered.items.map((d) => d.userId).sort()).toEqual(users);
  expect(delivered.items.every((d) => d.createdAt === scheduledAt)).toBe(true);
  const counters = await mine.scenarios.list();
  expect(counters.scenarios[0]!.rules[0]).toMatchObject({ matched: 3, applied: 2, remaining: 0 });
  expect((await mine.deliveries()).total).toBe(3); // nothing of any other app
}

describe.concurrent('eight workers, one emulator, each app its own clock and scenarios', () => {
  for (let w = 1; w <= WORKERS; w++) {
    it(`worker ${w}`, async () => {
      for (let n = 1; n <= ROUNDS; n++) await round(`worker-${w}`, n);
    });
  }
});

describe('after the workers', () => {
  it('the shared clock and the global set were never touched', async () => {
    const shared = await emulator.client.clock.get();
    expect(shared.mode).toBe('real');
    expect((await emulator.client.scenarios.list()).active).toEqual([]);
  });
});
