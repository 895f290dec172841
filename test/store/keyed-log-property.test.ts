/**
 * The keyed log (src/store/keyed-log.ts: position indexes caught up late, a cap, times that
 * ascend until a clock is moved back) against a plain array: any sequence of writes, drops,
 * changes and queries answers what filtering the array does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedLog, type KeyedQuery } from '../../src/store/common/keyed-log.js';

interface Row {
  id: number;
  app: string;
  tags: string[];
  kind: string;
  time: string;
  odd: boolean;
}

const APPS = ['a', 'b'];
const TAGS = ['x', 'y'];
const KINDS = ['k1', 'k2'];
/** Families: 0 the app (one key), 1 the tags (several or none), 2 the kind (none for k0). */
const keysOf = (r: Row) => [r.app, r.tags, r.kind === 'k0' ? null : r.kind];
const minute = (m: number) => new Date(Date.UTC(2030, 0, 1, 0, m)).toISOString();

type Op =
  | { kind: 'add'; app: number; tags: boolean[]; k: number; step: number; odd: boolean }
  | { kind: 'dropOldest' }
  | { kind: 'retain'; app: number }
  | { kind: 'update'; app: number; tags: boolean[]; k: number }
  | { kind: 'turn' }
  | {
      kind: 'query';
      families: boolean[];
      app: number;
      tag: number;
      k: number;
      since?: number;
      until?: number;
      odd: boolean;
      offset: number;
      limit: number;
      desc: boolean;
    };

const tagsArb = fc.array(fc.boolean(), { minLength: 2, maxLength: 2 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      app: fc.nat(1),
      tags: tagsArb,
      k: fc.nat(2),
      // Mostly forward; -1 and -2 are a clock moved back.
      step: fc.integer({ min: -2, max: 2 }),
      odd: fc.boolean(),
    }),
    weight: 4,
  },
  fc.record({ kind: fc.constant('dropOldest' as const) }),
  fc.record({ kind: fc.constant('retain' as const), app: fc.nat(1) }),
  fc.record({ kind: fc.constant('update' as const), app: fc.nat(1), tags: tagsArb, k: fc.nat(2) }),
  fc.record({ kind: fc.constant('turn' as const) }),
  {
    arbitrary: fc.record(
      {
        kind: fc.constant('query' as const),
        families: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        app: fc.nat(1),
        tag: fc.nat(1),
        k: fc.nat(1),
        since: fc.nat(8),
        until: fc.nat(8),
        odd: fc.boolean(),
        offset: fc.nat(4),
        limit: fc.nat(6),
        desc: fc.boolean(),
      },
      { requiredKeys: ['kind', 'families', 'app', 'tag', 'k', 'odd', 'offset', 'limit', 'desc'] },
    ),
    weight: 4,
  },
);

/** The query an op asks, with `matches` the whole test; exact and covered only when they are true. */
function queryOf(op: Extract<Op, { kind: 'query' }>): KeyedQuery<Row> {
  const keys: [number, string][] = [];
  if (op.families[0]) keys.push([0, APPS[op.app]!]);
  if (op.families[1]) keys.push([1, TAGS[op.tag]!]);
  if (op.families[2]) keys.push([2, KINDS[op.k]!]);
  const since = op.since === undefined ? undefined : minute(op.since);
  const until = op.until === undefined ? undefined : minute(op.until);
  const matches = (r: Row) =>
    keys.every(([f, key]) => (f === 0 ? r.app === key : f === 1 ? r.tags.includes(key) : r.kind === key)) &&
    (since === undefined || r.time >= since) &&
    (until === undefined || r.time <= until) &&
    (!op.odd || r.id % 2 === 1);
  return { keys, matches, exact: !op.odd && keys.length <= 1, covered: !op.odd, since, until };
}

describe('keyed log against an array model', () => {
  it('answers every query, lookup, change and drop as a capped array would, whichever families are scanned', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 70, size: 'max' }),
        fc.integer({ min: 1, max: 12 }),
        fc.nat(6),
        // Any family may be scanned (scanned-keys.ts), shared, multi-valued and changed keys
        // included: scanning is only slower to read.
        fc.subarray([0, 1, 2]),
        (ops, cap, initialCount, scanned) => {
          const later: (() => void)[] = [];
          let clock = 4;
          let serial = 0;
          const row = (app: number, tags: boolean[], k: number, odd: boolean): Row => ({
            id: serial * 2 + (odd ? 1 : 0),
            app: APPS[app]!,
            tags: TAGS.filter((_, i) => tags[i]),
            kind: ['k0', ...KINDS][k]!,
            time: minute(clock),
            odd,
          });
          const initial = Array.from({ length: initialCount }, (_, i) => {
            serial++;
            clock += i % 3 === 2 ? -1 : 1;
            return row(i % 2, [i % 2 === 0, i % 3 === 0], i % 3, i % 2 === 1);
          });
          const log = new KeyedLog<Row>(
            { maxRecords: cap, families: 3, keysOf, scanned, timeOf: (r) => r.time, later: (task) => later.push(task) },
            initial,
          );
          let model = initial.slice(-cap);
          let dropped = initial.length - model.length;
          for (const op of ops) {
            serial++;
            if (op.kind === 'add') {
              clock = Math.max(0, clock + op.step);
              const r = row(op.app, op.tags, op.k, op.odd);
              log.add(r);
              model.push(r);
              if (model.length > cap) {
                model.shift();
                dropped++;
              }
            } else if (op.kind === 'dropOldest') {
              expect(log.dropOldest()).toBe(model[0]);
              if (model.shift()) dropped++;
            } else if (op.kind === 'retain') {
              log.retain((r) => r.app !== APPS[op.app]);
              model = model.filter((r) => r.app !== APPS[op.app]);
            } else if (op.kind === 'update') {
              const app = APPS[op.app]!;
              const newest = model.findLast((r) => r.app === app);
              const changed = log.update(0, app, (r) => {
                r.tags = TAGS.filter((_, i) => op.tags[i]);
                r.kind = ['k0', ...KINDS][op.k]!;
              });
              expect(changed).toBe(newest);
            } else if (op.kind === 'turn') {
              for (const task of later.splice(0)) task();
            } else {
              const q = queryOf(op);
              const found = model.filter(q.matches);
              const ordered = op.desc ? [...found].reverse() : found;
              expect(log.query(q, { offset: op.offset, limit: op.limit, order: op.desc ? 'desc' : 'asc' })).toEqual({
                total: found.length,
                items: ordered.slice(op.offset, op.offset + op.limit),
              });
              expect(log.candidates(q, op.desc).filter(q.matches)).toEqual(ordered);
            }
            expect(log.length).toBe(model.length);
            expect(log.dropped).toBe(dropped);
          }
          expect(log.toArray()).toEqual(model);
          expect([...log]).toEqual(model);
          for (const [family, key] of [
            [0, 'a'],
            [1, 'x'],
            [1, 'y'],
            [2, 'k1'],
          ] as const) {
            const test = (r: Row) =>
              family === 0 ? r.app === key : family === 1 ? r.tags.includes(key) : r.kind === key;
            expect(log.newest(family, key)).toBe(model.findLast(test));
            expect(log.findNewest(test)).toBe(model.findLast(test));
          }
          log.resetDropped();
          expect(log.dropped).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lists by since and until after the cap drops records while the clock has been moved back', () => {
    const log = new KeyedLog<Row>({ maxRecords: 3, families: 3, keysOf, timeOf: (r) => r.time, later: () => {} });
    const add = (id: number, m: number) => log.add({ id, app: 'a', tags: [], kind: 'k1', time: minute(m), odd: false });
    const ids = (since: number, until: number) => {
      const range = { since: minute(since), until: minute(until) };
      const matches = (r: Row) => r.app === 'a' && r.time >= range.since && r.time <= range.until;
      return log
        .query({ keys: [[0, 'a']], matches, exact: true, ...range }, { offset: 0, limit: 10 })
        .items.map((r) => r.id);
    };
    // 10, then the clock back to 5, then on: the log is out of time order, so times are tested one by one.
    add(1, 10);
    add(2, 5);
    add(3, 11);
    expect(ids(5, 10)).toEqual([1, 2]);
    // The cap drops 10: 5, 11, 12 ascend again, and a binary search must find them.
    add(4, 12);
    expect(ids(5, 11)).toEqual([2, 3]);
    expect(ids(6, 12)).toEqual([3, 4]);
    // Back again to 7 (dropping 5): 11, 12, 7.
    add(5, 7);
    expect(ids(7, 11)).toEqual([3, 5]);
    expect(ids(0, 8)).toEqual([5]);
  });
});
