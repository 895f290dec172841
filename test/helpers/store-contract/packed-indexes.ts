/**
 * The indexes of the records kept in packed blocks: recipients (per-status counts per
 * block, the hash of users, lookups by id) and analytics events (the chains of each app and
 * user). Property-based: each answer must be what a plain filter over the same records
 * gives, whether the records are still as added or already sealed into columns (a turn of
 * the event loop seals them), across blocks (bulk adds of thousands), retention caps and
 * clear(app). Part of the store contract.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AnalyticsStore, CampaignStore, PerUser, StoreLifecycle } from '../../../src/domain/ports.js';
import type { AnalyticsEvent } from '../../../src/schemas/analytics.js';
import type { Recipient, RecipientStatus } from '../../../src/schemas/records.js';
import { at, campaign, expectAnalyticsAnswers, type MakeStore } from './records.js';
import { expected } from './properties.js';

type PackedPorts = CampaignStore & AnalyticsStore & Pick<StoreLifecycle, 'clear' | 'stats'>;

const CAMPAIGNS = { c1: 'app-a', c2: 'app-b' } as const;
type CampaignId = keyof typeof CAMPAIGNS;
const campaignId = fc.constantFrom<CampaignId>('c1', 'c2');
const status = fc.constantFrom<RecipientStatus>('pending', 'sent', 'failed');
const STATUSES = [undefined, 'pending', 'sent', 'failed', 'bogus'] as const;
/** Ids as the emulator names them (a hex counter at the end) or not, so both column forms come up. */
const idOf = (serial: number, k: number) =>
  serial % 2 === 0 ? `65a1b2c3d4e5f6a7b8${((serial << 12) + k).toString(16).padStart(6, '0')}` : `r-${serial}-${k}`;
const variables = fc.constantFrom<Record<string, unknown>>(
  {},
  { name: 'Ada' },
  { name: 'Lin', banner: { url: 'https://x/1.png', width: 1 } },
);

const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      campaign: campaignId,
      users: fc.array(fc.nat(12), { minLength: 1, maxLength: 6 }),
      status,
      variables,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('bulk' as const),
      campaign: campaignId,
      count: fc.integer({ min: 1, max: 3000 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      campaign: campaignId,
      pick: fc.nat(6000),
      status,
      deliveryId: fc.constantFrom(null, '65a1b2c3d4e5f6a7b8c9d0e1', 'd-1'),
      failureReason: fc.constantFrom(null, 'provider down'),
    }),
  },
  {
    // What a campaign send does: its next pending ones settled in one call.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      campaign: campaignId,
      max: fc.integer({ min: 1, max: 70 }),
      reasons: fc.array(fc.constantFrom(null, null, 'provider down', 'quota'), { minLength: 1, maxLength: 5 }),
      // Ids of one run (a counter after a shared prefix), with the odd other one or none.
      ids: fc.array(fc.constantFrom('run', 'run', 'run', 'plain', 'upper', 'none'), { minLength: 1, maxLength: 5 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'tick' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('clear' as const), appId: fc.constantFrom('app-a', 'app-b') }),
  },
);

const page = fc.record({
  offset: fc.oneof(fc.nat(6), fc.nat(6000)),
  limit: fc.integer({ min: 0, max: 8 }),
  order: fc.constantFrom('asc' as const, 'desc' as const),
});

/** Member `k` of a per-user value, however the store hands it over. */
const valueAt = <T>(values: PerUser<T>, k: number): T =>
  'all' in values ? values.all : 'each' in values ? values.each[k]! : values.eachAt(k);

function row(c: CampaignId, id: string, userId: string, over: Partial<Recipient>): Recipient {
  return {
    id,
    campaignId: c,
    appId: CAMPAIGNS[c],
    userId,
    variables: {},
    status: 'pending',
    failureReason: null,
    deliveryId: null,
    createdAt: at(1),
    updatedAt: at(1),
    ...over,
  };
}

export function packedIndexContract(make: MakeStore<PackedPorts>): void {
  describe('packed records: the indexes answer as a plain filter would', () => {
    it('analytics events: per app, per user and the twin of an event, across sealed blocks and caps', () =>
      analyticsAcrossBlocks(make));

    it('recipients: pages and counts by status, users and ids, sealed or not, across blocks', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(op, { maxLength: 25 }),
          fc.array(fc.tuple(campaignId, fc.constantFrom(...STATUSES), page), { minLength: 1, maxLength: 6 }),
          async (ops, queries) => {
            const store = await make();
            const model: Record<CampaignId, Recipient[]> = { c1: [], c2: [] };
            const open = () => {
              for (const c of ['c1', 'c2'] as const)
                if (!store.getCampaign(c)) store.addCampaign(campaign(c, { appId: CAMPAIGNS[c] }));
            };
            open();
            for (const [serial, o] of ops.entries()) {
              if (o.kind === 'tick') await tick();
              else if (o.kind === 'clear') {
                store.clear(o.appId);
                for (const c of ['c1', 'c2'] as const) if (CAMPAIGNS[c] === o.appId) model[c] = [];
                open();
              } else if (o.kind === 'add') {
                const rows = o.users.map((u, k) =>
                  row(o.campaign, idOf(serial, k), `user-${u}`, { status: o.status, variables: o.variables }),
                );
                store.addRecipients(o.campaign, rows);
                model[o.campaign].push(...rows.map((r) => structuredClone(r)));
              } else if (o.kind === 'bulk') {
                const rows = Array.from({ length: o.count }, (_, k) =>
                  row(o.campaign, idOf(serial, k), `bulk-${serial}-${k}`, {
                    status: (['pending', 'sent', 'failed'] as const)[k % 7 === 0 ? 2 : k % 3 === 0 ? 1 : 0],
                    variables: k % 2 === 0 ? {} : { n: k },
                    createdAt: at(serial),
                    updatedAt: at(serial),
                  }),
                );
                store.addRecipients(o.campaign, rows);
                model[o.campaign].push(...rows.map((r) => structuredClone(r)));
              } else if (o.kind === 'settle') {
                const pending = store.pendingRecipients(o.campaign, o.max);
                const deliveryId = (k: number): string | null => {
                  const kind = o.ids[k % o.ids.length];
                  const counter = ((serial << 8) + k).toString(16).padStart(6, '0');
                  if (kind === 'none') return null;
                  if (kind === 'plain') return `d-${serial}-${k}`;
                  return `65a1b2c3d4e5f6a7b8${kind === 'upper' ? counter.toUpperCase() : counter}`;
                };
                const reason = (k: number) => o.reasons[k % o.reasons.length]!;
                store.settleRecipients(o.campaign, pending, { at: at(serial), reason, deliveryId });
                const due = model[o.campaign].filter((r) => r.status === 'pending').slice(0, pending.positions.length);
                due.forEach((r, k) =>
                  Object.assign(r, {
                    status: reason(k) === null ? 'sent' : 'failed',
                    failureReason: reason(k),
                    deliveryId: deliveryId(k),
                    updatedAt: at(serial),
                  }),
                );
              } else {
                const list = model[o.campaign];
                const target = list[o.pick % Math.max(1, list.length)];
                const patch = {
                  status: o.status,
                  deliveryId: o.deliveryId,
                  failureReason: o.failureReason,
                  updatedAt: at(serial),
                };
                store.updateRecipient(o.campaign, target?.id ?? 'nobody', patch);
                if (target) Object.assign(target, patch);
              }
            }
            for (const [c, s, p] of queries) {
              const answer = expected(model[c], (r) => s === undefined || r.status === s, p);
              expect(store.listRecipients(c, { status: s }, p)).toEqual(answer);
              expect(store.countRecipients(c, { status: s })).toBe(answer.total);
              const users = new Set(model[c].map((r) => r.userId));
              for (const u of ['user-0', 'user-3', 'bulk-0-0', `bulk-${ops.length - 1}-1`, 'nobody'])
                expect(store.hasRecipient(c, u)).toBe(users.has(u));
            }
            for (const c of ['c1', 'c2'] as const) {
              // What a send reads: a prefix of the pending ones, their variables read by index.
              const pending = model[c].filter((r) => r.status === 'pending');
              const next = store.pendingRecipients(c, 5);
              expect(next.positions.length > 0).toBe(pending.length > 0);
              const first = pending.slice(0, next.positions.length);
              expect(next.positions.map((p) => model[c][p]!.id)).toEqual(first.map((r) => r.id));
              expect(next.userIds).toEqual(first.map((r) => r.userId));
              expect(first.map((_, k) => valueAt(next.variables, k))).toEqual(first.map((r) => r.variables));
              expect(store.recipients(c).length).toBe(model[c].length);
              expect(store.recipients(c).at(model[c].length - 1)).toEqual(model[c].at(-1));
            }
            expect([...store.recipients('c1'), ...store.recipients('c2')]).toEqual([...model.c1, ...model.c2]);
            expect(store.stats().recipients).toBe(model.c1.length + model.c2.length);
          },
        ),
        { numRuns: 25 },
      );
    });
  });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const eventOp = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      appId: fc.constantFrom('app-a', 'app-b'),
      userId: fc.constantFrom('u1', 'u2', 'u3'),
      campaignId: fc.constantFrom('c1', 'c2'),
      eventType: fc.constantFrom('delivered' as const, 'viewed' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('bulk' as const),
      count: fc.integer({ min: 1, max: 2500 }),
      tick: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'tick' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('clear' as const), appId: fc.constantFrom('app-a', 'app-b') }),
  },
);
const ask = fc.record({
  appId: fc.constantFrom('app-a', 'app-b'),
  userId: fc.constantFrom('u1', 'u2', 'u3', 'u4'),
  campaignId: fc.constantFrom('c1', 'c2'),
  eventType: fc.constantFrom('delivered' as const, 'viewed' as const),
});

/** An event id as the emulator names one (`evt_` and a hex counter) or not, so both column forms come up. */
const eventId = (serial: number, k: number) =>
  serial % 2 === 0 ? `evt_65a1b2c3d4e5f6a7b8${((serial << 12) + k).toString(16).padStart(6, '0')}` : `e${serial}-${k}`;

async function analyticsAcrossBlocks(make: MakeStore<PackedPorts>): Promise<void> {
  const cap = fc.oneof(
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) },
    { weight: 3, arbitrary: fc.integer({ min: 2000, max: 5000 }) },
  );
  await fc.assert(
    fc.asyncProperty(
      cap,
      fc.array(eventOp, { maxLength: 25 }),
      fc.array(ask, { minLength: 1, maxLength: 5 }),
      async (max, ops, asks) => {
        const store = await make({ maxAnalyticsEvents: max });
        let model: AnalyticsEvent[] = [];
        const add = (events: AnalyticsEvent[]) => {
          for (const e of events) store.addAnalyticsEvent(e);
          model = [...model, ...events.map((e) => ({ ...e }))].slice(-max);
        };
        for (const [serial, o] of ops.entries()) {
          if (o.kind === 'tick') await tick();
          else if (o.kind === 'clear') {
            store.clear(o.appId);
            model = model.filter((e) => e.appId !== o.appId);
          } else if (o.kind === 'add') {
            const { kind: _kind, ...fields } = o;
            add([{ id: eventId(serial, 0), channelType: 'push', createdAt: at(serial), ...fields }]);
          } else
            add(
              Array.from({ length: o.count }, (_, k) => ({
                id: eventId(serial, k),
                appId: k % 3 === 0 ? 'app-b' : 'app-a',
                campaignId: `c${k % 2 === 0 ? 1 : 2}`,
                userId: `u${k % 4}`,
                channelType: 'in_app' as const,
                eventType: k % 5 === 0 ? ('viewed' as const) : ('delivered' as const),
                createdAt:
                  serial % 3 === 0 && k % 11 === 0
                    ? `2030-01-01 minute ${serial}`
                    : new Date(Date.parse(at(serial)) + k * 1000).toISOString(),
              })),
            );
          if (o.kind === 'bulk' && o.tick) await tick();
        }
        for (const a of asks) expectAnalyticsAnswers(store, model, a);
        expect(store.stats().analyticsEvents).toBe(model.length);
      },
    ),
    { numRuns: 15 },
  );
}
