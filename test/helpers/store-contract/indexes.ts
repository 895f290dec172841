/**
 * The key indexes behind every filtered list (notifications, journal, analytics events):
 * property-based, each query's answer must be what a plain filter over the same records
 * gives (its total and its page, in either order), through retention caps, clear(app) and
 * times out of order (a manual clock moved back). Part of the store contract.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AnalyticsStore, JournalStore, NotificationStore, StoreLifecycle } from '../../../src/domain/ports.js';
import type { AnalyticsEvent } from '../../../src/schemas/analytics.js';
import type { JournalEntry, NotificationRecord } from '../../../src/schemas/records.js';
import { at, expectAnalyticsAnswers, journalEntry, notification, type MakeStore } from './records.js';
import { app, expected, maybe, page, run as check } from './properties.js';

type IndexedPorts = NotificationStore & JournalStore & AnalyticsStore & Pick<StoreLifecycle, 'clear'>;

/** Minutes: mostly ascending (the serial), sometimes from a small set that goes back. */
const minute = fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 6 }));
const timeRange = fc.record({
  since: maybe(fc.integer({ min: 0, max: 8 })),
  until: maybe(fc.integer({ min: 0, max: 8 })),
});
const ms = (m: number | undefined) => (m === undefined ? undefined : Date.parse(at(m)));

const inRange = (time: string, since?: number, until?: number) =>
  (since === undefined || time >= at(since)) && (until === undefined || time <= at(until));

const cap = fc.integer({ min: 1, max: 12 });
const run = <T>(arb: fc.Arbitrary<T>, fn: (value: T) => Promise<void>) => check(arb, fn, 60);

export function indexContract(make: MakeStore<IndexedPorts>): void {
  describe('key indexes answer as a plain filter would', () => {
    it('notifications: every filter, alone and together, with times and pages', async () => {
      const op = fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record({
            kind: fc.constant('add' as const),
            appId: app,
            mode: fc.constantFrom('realtime', 'batch'),
            tag: fc.constantFrom(null, 't1', 't2'),
            templateKey: fc.constantFrom('k1', 'k2'),
            minute,
          }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), appId: app }) },
      );
      const filter = fc.record({
        appId: maybe(app),
        mode: maybe(fc.constantFrom('realtime', 'batch')),
        tag: maybe(fc.constantFrom('t1', 't2')),
        templateKey: maybe(fc.constantFrom('k1', 'k2')),
        notificationId: maybe(fc.nat(20).map((n) => `notif_${n}`)),
      });
      await run(
        fc.tuple(
          cap,
          fc.array(op, { maxLength: 30 }),
          fc.array(fc.tuple(filter, timeRange, page), { minLength: 1, maxLength: 5 }),
        ),
        async ([max, ops, queries]) => {
          const store = await make({ maxNotifications: max });
          let model: NotificationRecord[] = [];
          ops.forEach((o, serial) => {
            if (o.kind === 'clear') {
              store.clear(o.appId);
              model = model.filter((n) => n.appId !== o.appId);
              return;
            }
            const { kind: _kind, minute: m, ...fields } = o;
            const record = notification(serial, { ...fields, createdAt: at(m < 0 ? serial : m) });
            store.addNotification(record);
            model = [...model, record].slice(-max);
          });
          for (const [f, t, p] of queries) {
            const matches = (n: NotificationRecord) =>
              (f.appId === undefined || n.appId === f.appId) &&
              (f.mode === undefined || n.mode === f.mode) &&
              (f.tag === undefined || n.tag === f.tag) &&
              (f.templateKey === undefined || n.templateKey === f.templateKey) &&
              (f.notificationId === undefined || n.notificationId === f.notificationId) &&
              inRange(n.createdAt, t.since, t.until);
            const got = store.queryNotifications({ ...f, since: ms(t.since), until: ms(t.until) }, p);
            expect(got).toEqual(expected(model, matches, p));
          }
        },
      );
    });

    it('journal: every filter, alone and together, with times, pages and lookups by id', async () => {
      const op = fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record({
            kind: fc.constant('add' as const),
            appId: fc.constantFrom('app-a', 'app-b', null),
            method: fc.constantFrom('GET', 'POST'),
            path: fc.constantFrom('/a', '/b'),
            status: fc.constantFrom(200, 404),
            errorCode: fc.constantFrom(null, 'ERR_X'),
            scenario: fc.constantFrom(null, 's1'),
            ruleScenarios: fc.subarray(['s1', 's2']),
            body: fc.constantFrom(null, 'hello', 'world'),
            minute,
          }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), appId: app }) },
        {
          // The rules a campaign's failed deliveries add to (or take from) an earlier entry.
          weight: 2,
          arbitrary: fc.record({
            kind: fc.constant('rules' as const),
            back: fc.nat(8),
            ruleScenarios: fc.subarray(['s1', 's2', 's3']),
          }),
        },
      );
      const filter = fc.record({
        appId: maybe(app),
        method: maybe(fc.constantFrom('get', 'POST')),
        path: maybe(fc.constantFrom('/a', '/b')),
        status: maybe(fc.constantFrom(200, 404)),
        errorCode: maybe(fc.constant('ERR_X')),
        scenario: maybe(fc.constantFrom('s1', 's2', 's3')),
        bodyContains: maybe(fc.constantFrom('ell', 'o')),
      });
      await run(
        fc.tuple(
          cap,
          fc.array(op, { maxLength: 30 }),
          fc.array(fc.tuple(filter, timeRange, page), { minLength: 1, maxLength: 5 }),
          fc.nat(30),
        ),
        async ([max, ops, queries, lookup]) => {
          const store = await make({ maxJournal: max });
          let model: JournalEntry[] = [];
          ops.forEach((o, serial) => {
            if (o.kind === 'clear') {
              store.clear(o.appId);
              model = model.filter((e) => e.appId !== o.appId);
              return;
            }
            if (o.kind === 'rules') {
              const target = model.at(-1 - o.back);
              if (target === undefined) return;
              const rules = o.ruleScenarios.map((scenario, index) => ({ scenario, index, rule: 'r' }));
              store.setJournalRules(target.id, rules);
              const last = rules.at(-1);
              const updated = { ...target, rules, scenario: last?.scenario ?? null, rule: last?.rule ?? null };
              model = model.map((e) => (e.id === target.id ? updated : e));
              return;
            }
            const rules = o.ruleScenarios.map((scenario, index) => ({ scenario, index, rule: 'r' }));
            const entry = journalEntry(serial, {
              appId: o.appId,
              method: o.method,
              path: o.path,
              status: o.status,
              errorCode: o.errorCode,
              scenario: o.scenario,
              rule: o.scenario,
              rules,
              requestBody: o.body,
              time: at(o.minute < 0 ? serial : o.minute),
            });
            store.addJournal(entry);
            model = [...model, entry].slice(-max);
          });
          for (const [f, t, p] of queries) {
            const matches = (e: JournalEntry) =>
              (f.appId === undefined || e.appId === f.appId) &&
              (f.method === undefined || e.method === f.method.toUpperCase()) &&
              (f.path === undefined || e.path === f.path) &&
              (f.status === undefined || e.status === f.status) &&
              (f.errorCode === undefined || e.errorCode === f.errorCode) &&
              (f.scenario === undefined ||
                e.scenario === f.scenario ||
                e.rules.some((r) => r.scenario === f.scenario)) &&
              (f.bodyContains === undefined || e.requestBody?.includes(f.bodyContains) === true) &&
              inRange(e.time, t.since, t.until);
            const filter = { ...f, since: ms(t.since), until: ms(t.until) };
            expect(store.queryJournal(filter, p)).toEqual(expected(model, matches, p));
            // As the route asks: a body search in slices gives the same answer.
            expect(await store.searchJournal(filter, p)).toEqual(expected(model, matches, p));
          }
          expect(store.getJournalEntry(`j${lookup}`)).toEqual(model.find((e) => e.id === `j${lookup}`));
        },
      );
    });

    it('analytics events: per app, per user, and the twin of an event', async () => {
      const op = fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record({
            kind: fc.constant('add' as const),
            appId: app,
            userId: fc.constantFrom('u1', 'u2', 'u3'),
            campaignId: fc.constantFrom('c1', 'c2'),
            eventType: fc.constantFrom('delivered' as const, 'viewed' as const),
          }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), appId: app }) },
      );
      const ask = fc.record({
        appId: app,
        userId: fc.constantFrom('u1', 'u2', 'u3'),
        campaignId: fc.constantFrom('c1', 'c2'),
        eventType: fc.constantFrom('delivered' as const, 'viewed' as const),
      });
      await run(
        fc.tuple(cap, fc.array(op, { maxLength: 30 }), fc.array(ask, { minLength: 1, maxLength: 5 })),
        async ([max, ops, asks]) => {
          const store = await make({ maxAnalyticsEvents: max });
          let model: AnalyticsEvent[] = [];
          ops.forEach((o, serial) => {
            if (o.kind === 'clear') {
              store.clear(o.appId);
              model = model.filter((e) => e.appId !== o.appId);
              return;
            }
            const { kind: _kind, ...fields } = o;
            const event: AnalyticsEvent = { id: `e${serial}`, channelType: 'push', createdAt: at(serial), ...fields };
            store.addAnalyticsEvent(event);
            model = [...model, event].slice(-max);
          });
          for (const a of asks) expectAnalyticsAnswers(store, model, a);
        },
      );
    });
  });
}
