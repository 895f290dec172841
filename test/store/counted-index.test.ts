/**
 * Key → entries with their members and failures counted (src/store/common/counted-index.ts)
 * against a Map of entry lists: any sequence of entries filed and dropped oldest first reads
 * the same counts, a key seen once (a bare number), a key that has only had single sent
 * deliveries (plain) and sequence numbers that wrap past 2^32 included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CountedIndex, type KeyEntries } from '../../src/store/common/counted-index.js';

const KEYS = ['a', 'b', 'c'];
const BILLION = 1_500_000_000;

interface Filed {
  seq: number;
  members: number;
  failed: number;
}

/** A key's entries, and whether one of them (since the key was last empty) was not a single sent delivery. */
interface KeyModel {
  entries: Filed[];
  mixed: boolean;
}

type Op =
  | { kind: 'add'; key: number; step: number; members: number; failed: number }
  | { kind: 'removeOldest'; key: number; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      key: fc.nat(2),
      step: fc.nat(2),
      // Mostly one sent delivery, as realtime sends are; now and then a billion and a half, so that the
      // running totals pass 2^32 while a key's live ones stay below (as any cap keeps them).
      members: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, fc.integer({ min: 1, max: 5 }), fc.constant(BILLION)),
      failed: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.nat(5), fc.constant(BILLION)),
    }),
  },
  fc.record({ kind: fc.constant('removeOldest' as const), key: fc.nat(2), pick: fc.nat(2) }),
);

function expectEntries(entries: KeyEntries, model: KeyModel): void {
  const filed = model.entries;
  expect(entries.count).toBe(filed.length);
  expect(Array.from({ length: entries.count }, (_, i) => entries.at(i))).toEqual(filed.map((e) => e.seq >>> 0));
  let members = 0;
  let failed = 0;
  for (let i = 0; i <= filed.length; i++) {
    expect(entries.membersBefore(i)).toBe(members);
    expect(entries.failedBefore(i)).toBe(failed);
    members += filed[i]?.members ?? 0;
    failed += filed[i]?.failed ?? 0;
  }
  expect(entries.plain).toBe(!model.mixed);
}

describe('CountedIndex', () => {
  it('reads every key as a Map of entry lists does', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 80 }),
        fc.oneof(fc.constant(0), fc.constant(2 ** 32 - 6)),
        (ops, start) => {
          const index = new CountedIndex();
          const model = new Map<string, KeyModel>(KEYS.map((k) => [k, { entries: [], mixed: false }]));
          let seq = start;
          for (const op of ops) {
            const key = KEYS[op.key]!;
            const m = model.get(key)!;
            if (op.kind === 'add') {
              seq += op.step + 1;
              const live = m.entries.reduce((sum, e) => sum + e.members, 0);
              const members = live + op.members < 2 ** 32 ? op.members : 1;
              const failed = Math.min(op.failed, members);
              index.add(key, seq, members, failed);
              m.entries.push({ seq, members, failed });
              if (members !== 1 || failed !== 0) m.mixed = true;
            } else {
              // The oldest (as the log drops), or a newer one, which must change nothing.
              const entry = m.entries[op.pick];
              if (entry === undefined) continue;
              index.removeOldest(key, entry.seq);
              if (op.pick === 0) m.entries.shift();
              if (m.entries.length === 0) m.mixed = false;
            }
            for (const k of KEYS) {
              expectEntries(index.entries(k), model.get(k)!);
              expect(index.count(k)).toBe(model.get(k)!.entries.length);
            }
            expect([...index.keys()].sort()).toEqual(KEYS.filter((k) => model.get(k)!.entries.length > 0));
          }
        },
      ),
      {
        numRuns: 200,
        // Running totals past 2^32 (three of a billion and a half), two of them live.
        examples: [
          [
            [
              ...[0, 1, 2].flatMap((): Op[] => [
                { kind: 'add', key: 0, step: 0, members: BILLION, failed: BILLION },
                { kind: 'add', key: 0, step: 0, members: 1, failed: 0 },
              ]),
              { kind: 'removeOldest', key: 0, pick: 0 },
              { kind: 'add', key: 0, step: 0, members: BILLION, failed: 1 },
            ],
            0,
          ],
        ],
      },
    );
  });

  it('reads a key never filed as no entries', () => {
    const index = new CountedIndex();
    const none = index.entries('none');
    expectEntries(none, { entries: [], mixed: false });
    expect(none.at(0)).toBeNaN();
    expect(index.count('none')).toBe(0);
    index.removeOldest('none', 1);
    expect([...index.keys()]).toEqual([]);
  });

  it('counts the single delivery of a key seen once, and drops it by its own number only', () => {
    const index = new CountedIndex();
    index.add('k', 2 ** 32 + 3, 1, 0);
    const one = index.entries('k');
    expect(one.at(0)).toBe(3);
    expect([one.membersBefore(0), one.membersBefore(1)]).toEqual([0, 1]);
    expect(one.failedBefore(1)).toBe(0);
    expect(one.plain).toBe(true);
    index.removeOldest('k', 4);
    expect(index.count('k')).toBe(1);
    index.removeOldest('k', 2 ** 32 + 3);
    expect(index.count('k')).toBe(0);
  });

  it('keeps the counts of a key that met a run after its first single delivery', () => {
    const index = new CountedIndex();
    index.add('k', 1, 1, 0);
    index.add('k', 2, 4, 1);
    index.add('k', 3, 1, 0);
    const entries = index.entries('k');
    expect([0, 1, 2, 3].map((i) => entries.membersBefore(i))).toEqual([0, 1, 5, 6]);
    expect([0, 1, 2, 3].map((i) => entries.failedBefore(i))).toEqual([0, 0, 1, 1]);
    expect(entries.plain).toBe(false);
    index.removeOldest('k', 1);
    expect([0, 1, 2].map((i) => entries.membersBefore(i))).toEqual([0, 4, 5]);
    expect([0, 1, 2].map((i) => entries.failedBefore(i))).toEqual([0, 1, 1]);
    index.removeOldest('k', 2);
    expect([0, 1].map((i) => entries.membersBefore(i))).toEqual([0, 1]);
    expect(entries.failedBefore(1)).toBe(0);
  });

  it('files a first entry that failed, or that holds several, as a list', () => {
    const index = new CountedIndex();
    index.add('f', 7, 1, 1);
    index.add('r', 7, 3, 0);
    expect(index.entries('f').failedBefore(1)).toBe(1);
    expect(index.entries('f').plain).toBe(false);
    expect(index.entries('r').membersBefore(1)).toBe(3);
    expect(index.entries('r').plain).toBe(false);
  });
});
