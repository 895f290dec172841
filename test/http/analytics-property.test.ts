/**
 * GET /api/analytics/channels counts sent deliveries per channel and time bucket without
 * building a row per delivery, then corrects with the recorded events. Whatever the sends,
 * failures, campaign, events and clock moves (backwards too), it must answer what building
 * every (notification or campaign, user, channel) row and counting each at its earliest
 * time answers: the model below.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChannelMetrics } from '../helpers/api-types.js';
import { CTA, call, callOk, makeTestApp, manualClock, sendOk } from '../helpers/app.js';
import { createCampaign, orderCsv, upload, waitForCampaignStatus } from '../helpers/campaigns.js';
import { engagementRows } from '../../src/domain/analytics-facts.js';
import type { EmulatorApp } from '../../src/index.js';

const APP = 'app-test';
/** Deliveries to users whose id starts with u-fail fail (the scenario below). */
const USERS = ['u-1', 'u-2', 'u-fail-1'];
const HOUR = 3_600_000;

type Op =
  | { kind: 'send'; template: 'order-confirmation' | 'plain'; users: string[] }
  /** ref: how many refs back from the newest (a recent send is the likely subject of an event). */
  | { kind: 'event'; ref: number; user: string; channelType: string; eventType: string }
  | { kind: 'clock'; hours: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      template: fc.constantFrom('order-confirmation' as const, 'plain' as const),
      users: fc.uniqueArray(fc.constantFrom(...USERS), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('event' as const),
      ref: fc.nat(3),
      user: fc.constantFrom(...USERS),
      channelType: fc.constantFrom('in_app', 'push', 'email'),
      eventType: fc.constantFrom('delivered', 'viewed', 'clicked'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('clock' as const), hours: fc.integer({ min: -40, max: 40 }) }),
  },
);

const queryArb = fc.record({
  fromHours: fc.integer({ min: -120, max: 120 }),
  spanHours: fc.integer({ min: 0, max: 240 }),
  granularity: fc.constantFrom('daily', 'hourly'),
});

/** What the answer was computed as before: one row per (ref, user, channel), each counted at its earliest time. */
function model(app: EmulatorApp, from: number, to: number, granularity: string): Map<string, Map<string, number[]>> {
  const { store } = app.emulator;
  const deliveries = store.queryDeliveries({ appId: APP }, { offset: 0, limit: Number.MAX_SAFE_INTEGER }).items;
  const rows = engagementRows(deliveries, store.listAnalyticsEvents(APP));
  const fromIso = new Date(from).toISOString();
  const toIso = new Date(to).toISOString();
  const bucketOf = (iso: string) => (granularity === 'daily' ? iso.slice(0, 10) : `${iso.slice(0, 13)}:00:00.000Z`);
  const counts = new Map<string, Map<string, number[]>>();
  for (const row of rows)
    [row.deliveredAt, row.viewedAt, row.clickedAt].forEach((at, k) => {
      if (at === null || at < fromIso || at > toIso) return;
      const byBucket = counts.get(row.channelType) ?? new Map<string, number[]>();
      counts.set(row.channelType, byBucket);
      const bucket = byBucket.get(bucketOf(at)) ?? [0, 0, 0];
      byBucket.set(bucketOf(at), bucket);
      bucket[k]!++;
    });
  return counts;
}

async function newApp(): Promise<{ app: EmulatorApp; clock: ReturnType<typeof manualClock>; refs: string[] }> {
  const clock = manualClock();
  const app = makeTestApp({ clock });
  await callOk(app, 'POST', '/__scenarios', {
    name: 'fail-some',
    rules: [{ match: { userId: 'u-fail*' }, fault: { failDelivery: 'unreachable' } }],
  });
  await callOk(app, 'PUT', '/__scenarios/active', { names: ['fail-some'] });
  // One campaign, so that events can name a campaign too.
  const campaign = await createCampaign(app, {}, { appId: APP });
  expect((await upload(app, orderCsv(['u-1', 'u-fail-1']), campaign.id)).status).toBe(200);
  await callOk(app, 'POST', `/api/campaigns/${campaign.id}/send`, {});
  await waitForCampaignStatus(app, campaign.id, 'sent');
  return { app, clock, refs: [campaign.id] };
}

describe('GET /api/analytics/channels', () => {
  it('answers what counting every row at its earliest time answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 5, maxLength: 30 }),
        fc.array(queryArb, { minLength: 1, maxLength: 3 }),
        async (ops, queries) => {
          const { app, clock, refs } = await newApp();
          for (const op of ops) {
            if (op.kind === 'clock') clock.set(clock.now() + op.hours * HOUR);
            else if (op.kind === 'send') {
              const variables = op.template === 'plain' ? {} : { customerName: 'Ada', cta: CTA };
              const mode = op.users.length > 1 ? 'batch' : 'realtime';
              const sent = await sendOk(app, { template: { key: op.template, variables }, targets: op.users, mode });
              refs.push(sent.notificationId);
            } else {
              const { ref, user, channelType, eventType } = op;
              const body = {
                campaignId: refs[Math.max(0, refs.length - 1 - ref)],
                userId: user,
                channelType,
                eventType,
              };
              await callOk(app, 'POST', '/api/analytics/events', body);
            }
          }
          const start = Date.parse('2030-01-01T00:00:00.000Z');
          for (const { fromHours, spanHours, granularity } of queries) {
            const from = start + fromHours * HOUR + 1_234;
            const to = from + spanHours * HOUR;
            const iso = (ms: number) => new Date(ms).toISOString();
            const query = `from=${iso(from)}&to=${iso(to)}&granularity=${granularity}`;
            const res = await call<ChannelMetrics[]>(app, 'GET', `/api/analytics/channels?${query}`);
            expect(res.status).toBe(200);
            const expected = model(app, from, to, granularity);
            for (const metrics of res.body) {
              const byBucket = expected.get(metrics.channelType);
              for (const b of metrics.timeSeries)
                expect([b.delivered, b.viewed, b.clicked], `${metrics.channelType} ${b.date}`).toEqual(
                  byBucket?.get(b.date) ?? [0, 0, 0],
                );
              expected.delete(metrics.channelType);
            }
            // Every channel type with activity in the range is listed.
            expect([...expected.keys()]).toEqual([]);
          }
        },
      ),
      { numRuns: 60, seed: 20261126 },
    );
  }, 60_000);
});
