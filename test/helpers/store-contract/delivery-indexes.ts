/**
 * The delivery indexes (every filter field alone and within its app, counted by member and
 * failure, several fields by the entries common to their keys; ids by the text a send's
 * range of ids starts with) and the campaign index (by app, status and both):
 * property-based, each answer must be what a plain filter over the same records gives,
 * through runs of many deliveries, failures, retention caps, clear(app), status changes and
 * times out of order (a manual clock moved back). Part of the store contract.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CampaignStore, DeliveryFilter, DeliveryStore, Ids, StoreLifecycle } from '../../../src/domain/ports.js';
import type { Campaign, Delivery } from '../../../src/schemas/records.js';
import { at, campaign, type MakeStore } from './records.js';
import { app, expected, maybe, page, run as check } from './properties.js';

type Ports = DeliveryStore & CampaignStore & Pick<StoreLifecycle, 'clear'>;

/** Minutes: mostly ascending (the serial), sometimes from a small set that goes back. */
const minute = fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, fc.integer({ min: 0, max: 6 }));
const run = <T>(arb: fc.Arbitrary<T>, fn: (value: T) => Promise<void>) => check(arb, fn, 100);

/** Ids `${serial}-${i}` for the batch added by op `serial`. */
const idsFor = (serial: number): Ids => ({
  objectId: () => `${serial}`,
  notificationId: () => `n${serial}`,
  objectIds: (count) => ({
    prefix: `${serial}-`,
    at: (i) => `${serial}-${i}`,
    indexOf: (id) => {
      const i = Number(id.slice(`${serial}-`.length));
      return id.startsWith(`${serial}-`) && Number.isInteger(i) && i >= 0 && i < count ? i : -1;
    },
  }),
});

const deliveryFilter = fc.record({
  appId: maybe(app),
  userId: maybe(fc.constantFrom('u1', 'u2', 'u3')),
  templateKey: maybe(fc.constantFrom('k1', 'k2')),
  templateId: maybe(fc.constantFrom('t1', 't2')),
  campaignId: maybe(fc.constantFrom('c1', 'c2')),
  notificationId: maybe(fc.nat(12).map((n) => `n${n}`)),
  mode: maybe(fc.constantFrom('realtime', 'batch')),
  channel: maybe(fc.constantFrom('push', 'email')),
  status: maybe(fc.constantFrom('sent', 'failed', 'pending')),
  tag: maybe(fc.constantFrom('x', 'y')),
  since: maybe(fc.integer({ min: 0, max: 8 })),
  until: maybe(fc.integer({ min: 0, max: 8 })),
});

type Filter = typeof deliveryFilter extends fc.Arbitrary<infer F> ? F : never;

const matchesDelivery = (f: Filter) => (d: Delivery) =>
  (f.appId === undefined || d.appId === f.appId) &&
  (f.userId === undefined || d.userId === f.userId) &&
  (f.templateKey === undefined || d.templateKey === f.templateKey) &&
  (f.templateId === undefined || d.templateId === f.templateId) &&
  (f.campaignId === undefined || d.campaignId === f.campaignId) &&
  (f.notificationId === undefined || d.notificationId === f.notificationId) &&
  (f.mode === undefined || d.mode === f.mode) &&
  (f.channel === undefined || d.channels.includes(f.channel)) &&
  (f.status === undefined || d.status === f.status) &&
  (f.tag === undefined || d.tag === f.tag) &&
  (f.since === undefined || d.createdAt >= at(f.since)) &&
  (f.until === undefined || d.createdAt <= at(f.until));

/** Counts per bucket of createdAt, ascending, empty ones left out (as the store answers). */
function bucketsOf(records: readonly Delivery[], bucketMs: number) {
  const buckets = new Map<number, { start: number; sent: number; failed: number }>();
  for (const d of records) {
    const time = Date.parse(d.createdAt);
    const start = time - (time % bucketMs);
    const bucket = buckets.get(start) ?? { start, sent: 0, failed: 0 };
    bucket[d.status === 'failed' ? 'failed' : 'sent']++;
    buckets.set(start, bucket);
  }
  return [...buckets.values()].sort((a, b) => a.start - b.start);
}

export function deliveryIndexContract(make: MakeStore<Ports>): void {
  describe('delivery and campaign indexes answer as a plain filter would', () => {
    it('deliveries: every filter, alone and together, with times, pages and counts per bucket', async () => {
      const send = fc.record({
        kind: fc.constant('send' as const),
        appId: app,
        users: fc.array(fc.constantFrom('u1', 'u2', 'u3'), { minLength: 1, maxLength: 4 }),
        failed: fc.array(fc.nat(3), { maxLength: 2 }),
        templateKey: fc.constantFrom('k1', 'k2'),
        templateId: fc.constantFrom('t1', 't2'),
        campaignId: fc.constantFrom(null, 'c1', 'c2'),
        channels: fc.constantFrom(['push'], ['email'], ['push', 'email'], ['email', 'email']).map((c) => [...c]),
        tag: fc.constantFrom(null, 'x', 'y'),
        minute,
      });
      const op = fc.oneof(
        { weight: 8, arbitrary: send },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), appId: app }) },
      );
      await run(
        fc.tuple(
          fc.integer({ min: 1, max: 16 }),
          fc.array(op, { maxLength: 24 }),
          fc.array(fc.tuple(deliveryFilter, page), { minLength: 1, maxLength: 5 }),
          fc.constantFrom(60_000, 120_000, 300_000),
        ),
        async ([max, ops, queries, bucketMs]) => {
          const store = await make({ maxDeliveries: max });
          let model: Delivery[] = [];
          const added: string[] = [];
          ops.forEach((o, serial) => {
            if (o.kind === 'clear') {
              store.clear(o.appId);
              model = model.filter((d) => d.appId !== o.appId);
              return;
            }
            const shared = {
              appId: o.appId,
              notificationId: `n${serial % 12}`,
              campaignId: o.campaignId,
              templateId: o.templateId,
              templateKey: o.templateKey,
              channels: o.channels,
              mode: o.users.length > 1 ? ('batch' as const) : ('realtime' as const),
              title: null,
              tag: o.tag,
              pushData: null,
              createdAt: at(o.minute < 0 ? serial : o.minute),
            };
            const failed = o.failed.filter((i) => i < o.users.length);
            const failures = new Map(failed.map((i) => [i, { reason: 'scripted', scenario: null }] as const));
            const batch = { shared, userIds: o.users, variables: { all: {} }, render: () => ({ body: 'b' }), failures };
            const stored = store.addDeliveries(batch, idsFor(serial));
            model = [...model, ...o.users.map((_, i) => stored.at(i))].slice(-max);
            added.push(...o.users.map((_, i) => stored.idAt(i)));
          });
          // By id: every live delivery, and none of those the cap or a clear dropped.
          for (const id of added) expect(store.getDelivery(id)).toEqual(model.find((d) => d.id === id));
          for (const [f, p] of queries) {
            const filter: DeliveryFilter = {
              ...f,
              since: f.since === undefined ? undefined : Date.parse(at(f.since)),
              until: f.until === undefined ? undefined : Date.parse(at(f.until)),
            };
            const matches = matchesDelivery(f);
            expect(store.queryDeliveries(filter, p)).toEqual(expected(model, matches, p));
            expect(store.countDeliveries(filter)).toBe(model.filter(matches).length);
            expect(store.countDeliveriesByTime(filter, bucketMs)).toEqual(bucketsOf(model.filter(matches), bucketMs));
            // Per channel: each channel a delivery went through once, in the order they first appear.
            const channels = [...new Set(model.filter(matches).flatMap((d) => d.channels))];
            const through = (channel: string) => (d: Delivery) => matches(d) && d.channels.includes(channel);
            expect(store.countDeliveriesByChannelAndTime(filter, bucketMs)).toEqual(
              channels.flatMap((channel) =>
                bucketsOf(model.filter(through(channel)), bucketMs).map((b) => ({ channel, ...b })),
              ),
            );
          }
        },
      );
    });

    it('campaigns: by app, status and both, in creation order, as they change and go', async () => {
      const status = fc.constantFrom('draft', 'scheduled', 'sending', 'sent');
      const op = fc.oneof(
        { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), appId: app, status }) },
        { weight: 3, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(20), status }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), appId: maybe(app) }) },
      );
      const filter = fc.record({ appId: maybe(app), status: maybe(status) });
      await run(
        fc.tuple(fc.array(op, { maxLength: 30 }), fc.array(fc.tuple(filter, page), { minLength: 1, maxLength: 5 })),
        async ([ops, queries]) => {
          const store = await make();
          let model: Campaign[] = [];
          ops.forEach((o, serial) => {
            if (o.kind === 'add') {
              const added = campaign(`c${serial}`, { appId: o.appId, status: o.status as Campaign['status'] });
              store.addCampaign(added);
              model.push(added);
            } else if (o.kind === 'update' && model.length > 0) {
              const target = model[o.pick % model.length]!;
              const updated = store.updateCampaign(target.id, { status: o.status as Campaign['status'] });
              model = model.map((c) => (c.id === target.id ? updated : c));
            } else if (o.kind === 'clear') {
              store.clear(o.appId);
              model = model.filter((c) => o.appId !== undefined && c.appId !== o.appId);
            }
          });
          for (const [f, p] of queries) {
            const matches = (c: Campaign) =>
              (f.appId === undefined || c.appId === f.appId) && (f.status === undefined || c.status === f.status);
            expect(store.queryCampaigns(f, p)).toEqual(expected(model, matches, p));
            expect(store.listCampaigns(f)).toEqual(model.filter(matches));
          }
        },
      );
    });
  });
}
