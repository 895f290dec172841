/**
 * The delivery log (runs, lazily built indexes, retention cap) against a plain array model:
 * any sequence of writes, clears and queries must answer exactly what filtering the array does.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createDeliveryLog, type CatchUpBudget } from '../../src/store/deliveries/delivery-log.js';
import {
  deliveryAt,
  indexesOf,
  packStrings,
  runOf,
  type DeliveryRun,
} from '../../src/store/deliveries/delivery-run.js';
import type { Delivery } from '../../src/schemas/records.js';
import type { DeliveryBatch, DeliveryFailureMark, DeliveryFilter, Ids } from '../../src/domain/ports.js';
import { collectGarbage } from '../helpers/collect-garbage.js';

const APPS = ['app-a', 'app-b'];
const USERS = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8'];

type Op =
  | { kind: 'add'; app: number; user: number; campaign: boolean; failed: boolean }
  | { kind: 'run'; app: number; users: number[]; failed: number[]; perMember: boolean }
  | { kind: 'query'; filter: DeliveryFilter; offset: number; limit: number; desc: boolean }
  | { kind: 'retain'; app: number }
  /** The log's later work runs now: runs added since get their user ids packed, runs of one are sealed in blocks. */
  | { kind: 'pack' };

/** Records are made a minute apart in fours, then the clock goes back: times mostly ascend, not always. */
const minuteOf = (serial: number) => new Date(Date.UTC(2030, 0, 1, 0, serial % 4)).toISOString();
const minuteMs = (minute: number) => Date.UTC(2030, 0, 1, 0, minute);

const filterArb: fc.Arbitrary<DeliveryFilter> = fc.record(
  {
    appId: fc.constantFrom(...APPS),
    userId: fc.constantFrom(...USERS, 'nobody'),
    status: fc.constantFrom('sent', 'failed'),
    notificationId: fc.constantFrom('n-1', 'n-2', 'n-3', 'notif_aa000001', 'notif_aa000002'),
    campaignId: fc.constantFrom('c-1', 'c-2'),
    templateKey: fc.constantFrom('welcome', 'other'),
    channel: fc.constantFrom('push', 'email'),
    mode: fc.constantFrom('realtime', 'batch'),
    since: fc.nat(3).map(minuteMs),
    until: fc.nat(3).map(minuteMs),
  },
  { requiredKeys: [] },
);

const addArb = fc.record({
  kind: fc.constant('add' as const),
  app: fc.nat(1),
  user: fc.nat(7),
  campaign: fc.boolean(),
  failed: fc.boolean(),
});

const runArb = fc.record({
  kind: fc.constant('run' as const),
  app: fc.nat(1),
  users: fc.array(fc.nat(7), { minLength: 0, maxLength: 7 }),
  failed: fc.array(fc.nat(6), { maxLength: 3 }),
  perMember: fc.boolean(),
});

const opArb: fc.Arbitrary<Op> = fc.oneof(
  addArb,
  runArb,
  fc.record({
    kind: fc.constant('query' as const),
    filter: filterArb,
    offset: fc.nat(6),
    limit: fc.nat(9),
    desc: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('retain' as const), app: fc.nat(1) }),
  fc.record({ kind: fc.constant('pack' as const) }),
);

/**
 * Ids named after the op that asked for them: for an even op, a prefix and six hex digits of a
 * counter, as the emulator names them (a run of one keeps its id as the two); for an odd op, a
 * name that ends in no counter.
 */
const idsFor = (serial: number): Ids => {
  const counted = serial % 2 === 0;
  const prefix = counted ? `ab${serial % 4}` : `r${serial}-`;
  const name = (i: number) => (counted ? prefix + (serial * 16 + i).toString(16).padStart(6, '0') : `${prefix}${i}`);
  return {
    objectId: () => `r${serial}`,
    objectIds: (count) => {
      const indexOf = (id: string) => {
        for (let i = 0; i < count; i++) if (name(i) === id) return i;
        return -1;
      };
      return { prefix, at: name, indexOf };
    },
    notificationId: () => `n${serial}`,
  };
};

/**
 * Two renderers, each given to many runs: the runs of one made with a renderer share what they
 * can (a profile) with the ones before, and the title, tag and channels change from op to op.
 */
const IN_APP_AND_PUSH = ['in_app', 'push'];
const PUSH = ['push'];
const RENDERERS = [() => ({ body: 'hi' }), () => ({ body: 'ho' })];

/** A plain batch (what the domain hands the store) as the log holds it. */
function storedRun(op: Extract<Op, { kind: 'run' }>, serial: number): DeliveryRun {
  const userIds = op.users.map((u) => USERS[u]!);
  const failures = new Map<number, DeliveryFailureMark>(
    op.failed.filter((i) => i < userIds.length).map((i) => [i, { reason: 'scripted', scenario: 's' }]),
  );
  const batch: DeliveryBatch = {
    shared: {
      appId: APPS[op.app]!,
      // Some in a counter's form (as the emulator names them), some not, and a campaign's chunk none.
      notificationId:
        serial % 8 === 5 ? null : serial % 4 < 2 ? `n-${(serial % 3) + 1}` : `notif_aa00000${(serial % 2) + 1}`,
      campaignId: serial % 8 === 5 ? 'c-1' : null,
      templateId: 't1',
      templateKey: 'welcome',
      channels: serial % 2 ? IN_APP_AND_PUSH : PUSH,
      mode: 'batch',
      title: serial % 3 === 0 ? 'Hello' : serial % 6 === 1 ? '' : null,
      tag: serial % 5 === 0 ? 'tagged' : null,
      pushData: null,
      createdAt: minuteOf(serial),
    },
    userIds,
    variables: op.perMember ? { each: userIds.map((u) => ({ name: u })) } : { all: { name: 'all' } },
    render: RENDERERS[serial % 7 === 0 ? 1 : 0]!,
    failures,
  };
  return runOf(batch, idsFor(serial));
}

function single(op: Extract<Op, { kind: 'add' }>, serial: number): Delivery {
  return {
    id: `d${serial}`,
    appId: APPS[op.app]!,
    notificationId: op.campaign ? null : `n-${(serial % 3) + 1}`,
    campaignId: op.campaign ? `c-${(serial % 2) + 1}` : null,
    userId: USERS[op.user]!,
    templateId: 't2',
    templateKey: serial % 2 ? 'welcome' : 'other',
    channels: [['push'], ['email'], ['push', 'email'], ['email', 'email']][serial % 4]!,
    mode: 'realtime',
    title: null,
    tag: null,
    variables: {},
    rendered: {},
    pushData: null,
    status: op.failed ? 'failed' : 'sent',
    failureReason: op.failed ? 'x' : null,
    scenario: null,
    createdAt: minuteOf(serial),
  };
}

/**
 * How many entries a query may index per index before it answers by scanning (none: all of
 * them). Counted rather than timed, so that a run is repeatable; the emulator times it.
 */
const budgetArb = fc.option(fc.nat(6), { nil: undefined });
const budget =
  (entries: number | undefined): CatchUpBudget =>
  () =>
  (done) =>
    entries !== undefined && done >= entries;

const matches = (d: Delivery, f: DeliveryFilter) =>
  Object.entries(f).every(([key, value]) => {
    if (value === undefined) return true;
    if (key === 'channel') return d.channels.includes(value as string);
    if (key === 'since') return Date.parse(d.createdAt) >= (value as number);
    if (key === 'until') return Date.parse(d.createdAt) <= (value as number);
    return d[key as keyof Delivery] === value;
  });

/** Sent and failed per minute of createdAt, ascending, empty minutes left out. */
function perMinute(records: readonly Delivery[]): { start: number; sent: number; failed: number }[] {
  const buckets = new Map<number, { start: number; sent: number; failed: number }>();
  for (const d of records) {
    const start = Date.parse(d.createdAt);
    const bucket = buckets.get(start) ?? { start, sent: 0, failed: 0 };
    bucket[d.status === 'failed' ? 'failed' : 'sent']++;
    buckets.set(start, bucket);
  }
  return [...buckets.values()].sort((a, b) => a.start - b.start);
}

describe('delivery log against an array model', () => {
  it('answers every query, count and drop as filtering a capped array would', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 80, size: 'max' }),
        fc.integer({ min: 1, max: 20 }),
        budgetArb,
        fc.integer({ min: 1, max: 4 }),
        (ops, cap, perQuery, singleBlockSize) => {
          const later: (() => void)[] = [];
          const log = createDeliveryLog(cap, [], 0, {
            catchUpBudget: budget(perQuery),
            later: (task) => later.push(task),
            singleBlockSize,
          });
          let model: Delivery[] = [];
          let dropped = 0;
          /** Ids of deliveries dropped by the cap or removed by a retain. */
          const gone: string[] = [];
          const capModel = () => {
            const excess = Math.max(0, model.length - cap);
            dropped += excess;
            gone.push(...model.slice(0, excess).map((d) => d.id));
            model = model.slice(excess);
          };
          ops.forEach((op, serial) => {
            if (op.kind === 'add') {
              const d = single(op, serial);
              log.add(d);
              model.push(d);
              capModel();
            } else if (op.kind === 'run') {
              const run = storedRun(op, serial);
              log.addRun(run);
              model.push(...Array.from({ length: run.userIds.length }, (_, i) => deliveryAt(run, i)));
              capModel();
            } else if (op.kind === 'retain') {
              log.retain((d) => d.appId !== APPS[op.app]);
              gone.push(...model.filter((d) => d.appId === APPS[op.app]).map((d) => d.id));
              model = model.filter((d) => d.appId !== APPS[op.app]);
            } else if (op.kind === 'pack') {
              for (const task of later.splice(0)) task();
            } else {
              // order=desc is the model reversed, the offset counted from the newest end.
              const inOrder = op.desc ? [...model].reverse() : model;
              const expected = inOrder.filter((d) => matches(d, op.filter));
              const order = op.desc ? 'desc' : 'asc';
              expect(log.query(op.filter, { offset: op.offset, limit: op.limit, order })).toEqual({
                total: expected.length,
                items: expected.slice(op.offset, op.offset + op.limit),
              });
              // Counts per minute bucket and status, and the same per channel (in the order the log first meets them).
              const found = model.filter((m) => matches(m, op.filter));
              expect(log.countByTime(op.filter, 60_000)).toEqual(perMinute(found));
              const channels = [...new Set(found.flatMap((d) => d.channels))];
              expect(log.countByChannelAndTime(op.filter, 60_000)).toEqual(
                channels.flatMap((channel) =>
                  perMinute(found.filter((d) => d.channels.includes(channel))).map((b) => ({ channel, ...b })),
                ),
              );
              // Every live delivery is found by id; a dropped or unknown id is not.
              for (const d of model) expect(log.find(d.id)).toEqual(d);
              expect(log.find('no-such-id')).toBeUndefined();
              for (const id of gone) expect(log.find(id)).toBeUndefined();
            }
            expect(log.length).toBe(model.length);
            expect(log.dropped).toBe(dropped);
          });
          expect(log.toArray()).toEqual(model);
          expect(log.query({}, { offset: 1, limit: 3 })).toEqual({ total: model.length, items: model.slice(1, 4) });
          expect(log.query({}, { offset: 1, limit: 3, order: 'desc' })).toEqual({
            total: model.length,
            items: [...model].reverse().slice(1, 4),
          });
        },
      ),
      {
        numRuns: 300,
        seed: 20261123,
        // A run cut by the cap, searched for a user while the user index is behind.
        examples: [
          [
            [
              { kind: 'run', app: 0, users: [5, 0], failed: [], perMember: false },
              { kind: 'query', filter: { userId: 'u6' }, offset: 0, limit: 0, desc: false },
            ],
            1,
            0,
            2,
          ],
        ],
      },
    );
  });

  it('pages across runs alike whether a run is counted in one step or member by member', () => {
    // Filters without a user count a run outside the page's window in one step, a filter on
    // the user alone reads its index, and a user with more walks it from entry to entry;
    // every window edge, inside a run and between runs, in both orders.
    const filters: DeliveryFilter[] = [
      { templateKey: 'welcome' },
      { appId: 'app-a' },
      { appId: 'app-b', status: 'sent' },
      { status: 'failed' },
      { templateKey: 'other', status: 'pending' },
      // One key's counts: the window's first entry by binary search, inside a run or between runs.
      { channel: 'push' },
      { mode: 'batch', status: 'failed' },
      { appId: 'app-a', templateKey: 'welcome', status: 'sent' },
      { since: minuteMs(1), until: minuteMs(2) },
      // Through the user index: the user alone (its count and window), and with other fields.
      { userId: 'u1' },
      { userId: 'u2', templateKey: 'welcome' },
      { userId: 'u4', appId: 'app-b' },
      { userId: 'u3', appId: 'app-a', status: 'sent' },
    ];
    fc.assert(
      fc.property(fc.array(fc.oneof(addArb, runArb), { maxLength: 40 }), budgetArb, (ops, perQuery) => {
        const log = createDeliveryLog(1000, [], 0, { catchUpBudget: budget(perQuery) });
        const model: Delivery[] = [];
        ops.forEach((op, serial) => {
          if (op.kind === 'add') {
            const d = single(op, serial);
            log.add(d);
            model.push(d);
          } else {
            const run = storedRun(op, serial);
            log.addRun(run);
            model.push(...Array.from({ length: run.userIds.length }, (_, i) => deliveryAt(run, i)));
          }
        });
        for (const filter of filters)
          for (const desc of [false, true]) {
            const expected = (desc ? [...model].reverse() : model).filter((d) => matches(d, filter));
            for (let offset = 0; offset <= expected.length; offset++)
              for (const limit of [0, 1, 2, 5])
                expect(log.query(filter, { offset, limit, order: desc ? 'desc' : 'asc' })).toEqual({
                  total: expected.length,
                  items: expected.slice(offset, offset + limit),
                });
          }
      }),
      { numRuns: 100, seed: 20261126 },
    );
  });

  it('lets go of an entry the cap dropped once its later work has run (it waits to leave the indexes)', async () => {
    const later: (() => void)[] = [];
    const runLater = () => {
      while (later.length > 0) later.shift()!();
    };
    const log = createDeliveryLog(2, [], 0, { later: (task) => later.push(task) });
    /** Adds a record only the log holds, and returns a weak reference to it. */
    const addHeld = (serial: number) => {
      const d = single({ kind: 'add', app: 0, user: 0, campaign: false, failed: false }, serial);
      log.add(d);
      return new WeakRef(d);
    };
    const first = addHeld(0);
    runLater(); // filed
    addHeld(1);
    addHeld(2); // the first is dropped: it leaves the indexes on a later turn
    expect(log.query({ appId: APPS[0] }, { offset: 0, limit: 10 }).total).toBe(2);
    runLater();
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(first.deref()).toBeUndefined();
  });

  it('keeps the persisted drop count and the cap when loaded from a snapshot', () => {
    const op = { kind: 'add' as const, app: 0, user: 0, campaign: false, failed: false };
    const initial = Array.from({ length: 5 }, (_, i) => single(op, i));
    const log = createDeliveryLog(3, initial, 7);
    expect(log.toArray().map((d) => d.id)).toEqual(['d2', 'd3', 'd4']);
    expect(log.dropped).toBe(7);
  });
});

describe('packStrings', () => {
  it('gives back every string, empty and multi-byte ones included, and undefined out of range', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 6 }), { maxLength: 30 }), (values) => {
        const packed = packStrings(values);
        expect(packed.length).toBe(values.length);
        expect(Array.from({ length: values.length }, (_, i) => packed.at(i))).toEqual(values);
        expect(packed.at(values.length)).toBeUndefined();
        expect(packed.at(-1)).toBeUndefined();
      }),
      { seed: 20261123 },
    );
  });

  it('finds every member equal to a string, and none that only contain it or span two', () => {
    // Few characters, so that members repeat, contain each other and join into others.
    const member = fc.string({ unit: fc.constantFrom('a', 'b', 'é'), maxLength: 3 });
    fc.assert(
      fc.property(fc.array(member, { maxLength: 30 }), member, (values, probe) => {
        const expected = (value: string) => values.flatMap((v, i) => (v === value ? [i] : []));
        for (const list of [packStrings(values), values])
          for (const value of [probe, ...values, values.slice(0, 2).join('')])
            expect(indexesOf(list, value), JSON.stringify({ values, value })).toEqual(expected(value));
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });
});
