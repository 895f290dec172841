/**
 * User ids → numbers (src/store/common/user-numbers.ts) against a Map: any sequence of users added
 * and freed finds the same users, whether their ids differ in the characters the table hashes
 * first or only in the others (which turns it to hashing every character). The table keeps no
 * id: it asks its owner, and never for a number it has freed.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { UserNumbers } from '../../src/store/common/user-numbers.js';

/** Ids that differ in one character only, at `at` from the start, among 36. */
const alike = (n: number, at: number) => `${'a'.repeat(at)}${String.fromCharCode(0x4e00 + n)}${'z'.repeat(35 - at)}`;

const idArb = fc.oneof(
  fc.uuid(),
  fc.nat(40).map((n) => `user-${n}`),
  fc.record({ n: fc.nat(80), at: fc.nat(35) }).map(({ n, at }) => alike(n, at)),
  fc.nat(80).map((n) => alike(n, 1)),
);

type Op = { kind: 'add'; id: string } | { kind: 'free'; pick: number };

/** The owner's side: each number's id, as a log would read it back; asking for a freed number fails. */
function ownedTable(): { table: UserNumbers; ids: Map<number, string> } {
  const ids = new Map<number, string>();
  const table = new UserNumbers((user) => {
    const id = ids.get(user);
    if (id === undefined) throw new Error(`asked for the id of number ${user}, which is not in use`);
    return id;
  });
  return { table, ids };
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), id: idArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('free' as const), pick: fc.nat() }) },
);

describe('UserNumbers', () => {
  it('finds each user as a Map of its live ids does, numbers freed and reused', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), fc.array(idArb, { maxLength: 20 }), (ops, asked) => {
        const { table, ids } = ownedTable();
        const model = new Map<string, number>();
        for (const op of ops) {
          if (op.kind === 'add') {
            if (table.numberOf(op.id) >= 0) continue;
            const user = table.add(op.id);
            expect([...model.values()]).not.toContain(user);
            model.set(op.id, user);
            ids.set(user, op.id);
          } else if (model.size > 0) {
            const [id, user] = [...model][op.pick % model.size]!;
            table.delete(user);
            model.delete(id);
            ids.delete(user);
          }
        }
        for (const id of [...model.keys(), ...asked]) expect(table.numberOf(id)).toBe(model.get(id) ?? -1);
        expect(table.size).toBe(model.size);
      }),
      { numRuns: 150 },
    );
  });

  it('finds ids alike in every sampled character, past the twins that turn it to hashing them whole', () => {
    const { table, ids: owned } = ownedTable();
    // 36 characters sampled every third from the end: these differ only at index 1, never read.
    const ids = Array.from({ length: 200 }, (_, n) => alike(n, 1));
    const numbers = ids.map((id) => {
      const user = table.add(id);
      owned.set(user, id);
      return user;
    });
    expect(ids.map((id) => table.numberOf(id))).toEqual(numbers);
    for (const user of numbers.slice(0, 100)) {
      table.delete(user);
      owned.delete(user);
    }
    expect(ids.map((id) => table.numberOf(id))).toEqual([...Array(100).fill(-1), ...numbers.slice(100)]);
    expect(table.numberOf(alike(500, 1))).toBe(-1);
  });

  it('finds 50,000 users as its segments grow and its hashes take pages, half of them freed', () => {
    const { table, ids } = ownedTable();
    const users = Array.from({ length: 50_000 }, (_, n) => {
      const id = `user-${n}`;
      const user = table.add(id);
      ids.set(user, id);
      return user;
    });
    for (let n = 0; n < 50_000; n += 2) {
      table.delete(users[n]!);
      ids.delete(users[n]!);
    }
    for (let n = 0; n < 50_000; n++) expect(table.numberOf(`user-${n}`)).toBe(n % 2 === 0 ? -1 : users[n]);
    expect(table.size).toBe(25_000);
  });

  it('reads back an id only on a true hash collision, not for runs that linear probing makes by chance', () => {
    let asked = 0;
    const ids: string[] = [];
    const table = new UserNumbers((user) => {
      asked++;
      return ids[user]!;
    });
    // 300,000 UUID-shaped ids from a fixed sequence (a linear congruential generator).
    let state = 12345;
    const hex = (digits: number) => {
      let out = '';
      for (let k = 0; k < digits; k++) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        out += (state >>> 28).toString(16);
      }
      return out;
    };
    for (let n = 0; n < 300_000; n++) {
      const id = `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
      if (table.numberOf(id) < 0) ids[table.add(id)] = id;
    }
    // A switch to hashing every character would read back every id: 100,000s.
    expect(asked).toBeLessThan(100);
  });
});
