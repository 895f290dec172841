/**
 * Ids found by scanning a column of hashes (src/store/common/scanned-keys.ts): every match is
 * checked against its record's key, so two ids with one hash stay apart. The keyed log's
 * property test (keyed-log-property.test.ts) runs every operation over scanned families too.
 */
import { describe, expect, it } from 'vitest';
import { keyHash, ScannedKeys } from '../../src/store/common/scanned-keys.js';

/** A position's keys, as a log would give them: one, several or none. */
type Keys = string | string[] | null;

/** Two ids with the same hash (found by trying ids in turn). */
const TWIN_A = 'notif_ff9e';
const TWIN_B = 'notif_8d950';

/** A column over records by position. */
function column(records: Map<number, Keys>): ScannedKeys {
  return new ScannedKeys((position, key) => [records.get(position)].flat().includes(key));
}

const listed = (keys: ScannedKeys, key: string) => {
  const list = keys.list(key);
  return Array.from({ length: list.count }, (_, i) => list.at(i));
};

describe('ScannedKeys', () => {
  it('keeps two ids with one hash apart', () => {
    expect(keyHash(TWIN_A)).toBe(keyHash(TWIN_B));
    const records = new Map<number, Keys>([
      [1, TWIN_A],
      [2, TWIN_B],
      [3, 'other'],
    ]);
    const keys = column(records);
    for (const [position, key] of records) keys.add(key as string, position);
    expect(listed(keys, TWIN_A)).toEqual([1]);
    expect(listed(keys, TWIN_B)).toEqual([2]);
    expect(keys.newest(TWIN_A)).toBe(1);
    expect(keys.newest(TWIN_B)).toBe(2);
    expect(keys.newest('missing')).toBeUndefined();
    expect(listed(keys, 'missing')).toEqual([]);
  });

  it('drops the oldest position, each key of a record with two in turn', () => {
    const records = new Map<number, Keys>([
      [4, ['x', 'y']],
      [6, 'x'],
    ]);
    const keys = column(records);
    keys.add('x', 4);
    keys.add('y', 4);
    keys.add('x', 6);
    expect(listed(keys, 'x')).toEqual([4, 6]);
    expect(listed(keys, 'y')).toEqual([4]);
    // Not the oldest: left as it is, as a position index leaves it.
    keys.removeOldest('x', 6);
    expect(listed(keys, 'x')).toEqual([4, 6]);
    keys.removeOldest('y', 4);
    keys.removeOldest('x', 4);
    expect(listed(keys, 'x')).toEqual([6]);
    expect(listed(keys, 'y')).toEqual([]);
  });

  it('files a position out of order where it belongs, once, and forgets one anywhere', () => {
    const records = new Map<number, Keys>([
      [1, 'a'],
      [3, 'c'],
      [5, ['a', 'e']],
    ]);
    const keys = column(records);
    keys.add('a', 1);
    keys.add('e', 5);
    keys.add('c', 3); // out of order
    keys.insert('a', 5);
    keys.insert('a', 5); // already there
    expect(listed(keys, 'a')).toEqual([1, 5]);
    expect(listed(keys, 'c')).toEqual([3]);
    expect(keys.newest('a')).toBe(5);
    keys.remove('a', 1);
    keys.remove('a', 2); // not there
    expect(listed(keys, 'a')).toEqual([5]);
    expect(listed(keys, 'e')).toEqual([5]);
    keys.removeOldest('c', 3);
    expect(listed(keys, 'c')).toEqual([]);
  });
});
