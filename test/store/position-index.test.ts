/**
 * Key → ascending positions (src/store/common/position-index.ts) against a Map of sorted
 * arrays: any sequence of positions added, dropped oldest first, inserted anywhere and removed
 * anywhere reads the same through every accessor, a key seen once (a bare number) included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstAtOrAfter, PositionIndex } from '../../src/store/common/position-index.js';

const KEYS = ['a', 'b', 'c'];

type Op =
  | { kind: 'add'; key: number; step: number }
  | { kind: 'removeOldest'; key: number; pick: number }
  | { kind: 'insert'; key: number; position: number }
  | { kind: 'remove'; key: number; position: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), key: fc.nat(2), step: fc.nat(3) }) },
  fc.record({ kind: fc.constant('removeOldest' as const), key: fc.nat(2), pick: fc.nat(3) }),
  fc.record({ kind: fc.constant('insert' as const), key: fc.nat(2), position: fc.nat(40) }),
  fc.record({ kind: fc.constant('remove' as const), key: fc.nat(2), position: fc.nat(40) }),
);

/** Every read of `key` as the model says it should be. */
function expectKey(index: PositionIndex, key: string, positions: readonly number[]): void {
  expect(index.newest(key)).toBe(positions.at(-1));
  const list = index.list(key);
  expect(list.count).toBe(positions.length);
  expect(Array.from({ length: list.count }, (_, i) => list.at(i))).toEqual(positions);
  expect([...index.positions(key)]).toEqual(positions);
  expect([...index.positions(key, true)]).toEqual([...positions].reverse());
}

describe('PositionIndex', () => {
  it('reads every key as a Map of sorted arrays does', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const index = new PositionIndex();
        const model = new Map<string, number[]>(KEYS.map((k) => [k, []]));
        let next = 0;
        for (const op of ops) {
          const key = KEYS[op.key]!;
          const positions = model.get(key)!;
          if (op.kind === 'add') {
            next += op.step + 1;
            index.add(key, next);
            positions.push(next);
          } else if (op.kind === 'removeOldest') {
            // The oldest (as the log drops), or another position, which must change nothing.
            const position = op.pick === 0 ? positions[0] : positions[op.pick];
            if (position === undefined) continue;
            index.removeOldest(key, position);
            if (op.pick === 0) positions.shift();
          } else if (op.kind === 'insert') {
            index.insert(key, op.position);
            if (!positions.includes(op.position)) {
              positions.push(op.position);
              positions.sort((x, y) => x - y);
            }
            next = Math.max(next, op.position);
          } else {
            index.remove(key, op.position);
            const at = positions.indexOf(op.position);
            if (at >= 0) positions.splice(at, 1);
          }
          for (const k of KEYS) expectKey(index, k, model.get(k)!);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('reads a key never filed as empty', () => {
    const index = new PositionIndex();
    expectKey(index, 'none', []);
    expect(index.list('none').at(0)).toBeNaN();
    index.removeOldest('none', 1);
    index.remove('none', 1);
    expectKey(index, 'none', []);
  });

  it('keeps a key seen once as one position, and drops it by that position only', () => {
    const index = new PositionIndex();
    index.add('k', 5);
    index.removeOldest('k', 4);
    index.remove('k', 6);
    expectKey(index, 'k', [5]);
    index.insert('k', 5);
    expectKey(index, 'k', [5]);
    index.insert('k', 3);
    expectKey(index, 'k', [3, 5]);
    index.remove('k', 3);
    expectKey(index, 'k', [5]);
    index.remove('k', 5);
    expectKey(index, 'k', []);
    index.insert('k', 9);
    expectKey(index, 'k', [9]);
  });

  it('drops the oldest of many only when it is the one named', () => {
    const index = new PositionIndex();
    for (const p of [1, 2, 3]) index.add('k', p);
    index.removeOldest('k', 2);
    expectKey(index, 'k', [1, 2, 3]);
    index.removeOldest('k', 1);
    index.removeOldest('k', 2);
    expectKey(index, 'k', [3]);
    index.removeOldest('k', 3);
    expectKey(index, 'k', []);
    index.add('k', 4);
    expectKey(index, 'k', [4]);
  });
});

describe('firstAtOrAfter', () => {
  it('finds where a position is or would go, as a walk does', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(60), { maxLength: 30 }), fc.integer({ min: -1, max: 61 }), (values, p) => {
        const positions = [...values].sort((x, y) => x - y);
        const walked = positions.findIndex((v) => v >= p);
        expect(firstAtOrAfter(positions, p)).toBe(walked === -1 ? positions.length : walked);
      }),
      { numRuns: 300 },
    );
  });
});
