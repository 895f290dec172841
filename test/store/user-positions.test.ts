/**
 * Each user's positions (src/store/deliveries/user-positions.ts) against a plain model, a list of
 * positions per user: any sequence of positions filed in order and dropped oldest first,
 * past the ring's growing and halving, reads back the same counts and positions. The index
 * keeps no user id: it reads one back by position, and never a position that has left.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { UserPositions } from '../../src/store/deliveries/user-positions.js';

const USERS = ['u1', 'u2', 'u3', 'u4', 'u5'];

type Op =
  /** `times` positions in a row, for users picked from `users` in turn. */
  | { kind: 'file'; users: number[]; times: number }
  /** The `gone` oldest positions leave (the retention cap). */
  | { kind: 'drop'; gone: number }
  /** Jumps ahead: positions the log dropped before they were filed. */
  | { kind: 'skip'; by: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('file' as const),
    users: fc.array(fc.nat(USERS.length - 1), { minLength: 1, maxLength: 4 }),
    times: fc.integer({ min: 1, max: 700 }),
  }),
  fc.record({ kind: fc.constant('drop' as const), gone: fc.integer({ min: 1, max: 900 }) }),
  fc.record({ kind: fc.constant('skip' as const), by: fc.integer({ min: 1, max: 5 }) }),
);

/** An index whose log is `owners` (position → user id); reading a position not in it fails. */
function indexOver(owners: Map<number, string>): UserPositions {
  return new UserPositions((position) => {
    const user = owners.get(position);
    if (user === undefined) throw new Error(`read position ${position}, which is not in the log`);
    return user;
  });
}

function expectSame(index: UserPositions, model: Map<string, number[]>): void {
  for (const user of [...USERS, 'nobody']) {
    const positions = model.get(user) ?? [];
    expect(index.count(user)).toBe(positions.length);
    expect([...index.positions(user)]).toEqual(positions);
    expect([...index.positions(user, true)]).toEqual([...positions].reverse());
    expect([...index.positions(user, true, 3)]).toEqual([...positions].reverse().slice(3));
    expect([...index.positions(user, false, 2)]).toEqual(positions.slice(2));
  }
}

describe('UserPositions', () => {
  it('answers as a list of positions per user, filed in order and dropped oldest first', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 25 }), (ops) => {
        const owners = new Map<number, string>();
        const index = indexOver(owners);
        const model = new Map<string, number[]>();
        /** The next position to file, and the oldest live one. */
        let next = 0;
        let first = 0;
        for (const op of ops) {
          if (op.kind === 'file')
            for (let k = 0; k < op.times; k++, next++) {
              const user = USERS[op.users[k % op.users.length]!]!;
              owners.set(next, user);
              index.add(user, next);
              model.set(user, [...(model.get(user) ?? []), next]);
            }
          else if (op.kind === 'drop') {
            first = Math.min(next, first + op.gone);
            index.dropBefore(first);
            for (const position of owners.keys()) if (position < first) owners.delete(position);
            for (const [user, positions] of model) {
              const live = positions.filter((p) => p >= first);
              if (live.length === 0) model.delete(user);
              else model.set(user, live);
            }
          } else if (first === next) {
            // Only once every filed position has left can the next one be further on.
            next += op.by;
            first = next;
          }
          expectSame(index, model);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a position filed out of order, which would break every user list', () => {
    const owners = new Map([
      [10, 'u1'],
      [11, 'u2'],
    ]);
    const index = indexOver(owners);
    index.add('u1', 10);
    expect(() => index.add('u2', 12)).toThrow('position 12 filed out of order (next is 11)');
    expect(() => index.add('u2', 10)).toThrow('filed out of order');
    expect(index.count('u2')).toBe(0);
  });

  it('frees a user whose last position left, and files it afresh later', () => {
    const owners = new Map(['u1', 'u2', 'u1', 'u2', 'u1'].map((user, position) => [position, user]));
    const index = indexOver(owners);
    index.add('u1', 0);
    index.add('u2', 1);
    index.add('u1', 2);
    index.dropBefore(3);
    for (const position of [0, 1, 2]) owners.delete(position);
    expect(index.count('u1')).toBe(0);
    expect([...index.positions('u1')]).toEqual([]);
    index.add('u2', 3);
    index.add('u1', 4);
    expect([...index.positions('u1')]).toEqual([4]);
    expect([...index.positions('u2')]).toEqual([3]);
  });
});
