/**
 * The keyed log (src/store/common/keyed-log.ts) in the cases its property test against an
 * array does not draw: a log made empty, a family a record has no key in (undefined, not
 * null), and the candidates of a time range as a list of their own.
 */
import { describe, expect, it } from 'vitest';
import { KeyedLog, type KeyValue } from '../../src/store/common/keyed-log.js';

interface Row {
  id: number;
  app: string;
  tag?: string;
  time: string;
}

const minute = (m: number) => new Date(Date.UTC(2030, 0, 1, 0, m)).toISOString();
/** Families: 0 the app, 1 the tag (undefined when the row has none). */
const keysOf = (r: Row): KeyValue[] => [r.app, r.tag];
const options = { maxRecords: 10, families: 2, keysOf, timeOf: (r: Row) => r.time, later: () => {} };
const byTag = (tag: string) => ({
  keys: [[1, tag]] as [number, string][],
  matches: (r: Row) => r.tag === tag,
  exact: true,
});

describe('KeyedLog', () => {
  it('starts empty when given no records', () => {
    const log = new KeyedLog<Row>(options);
    expect(log.length).toBe(0);
    expect(log.toArray()).toEqual([]);
    expect(log.query({ keys: [], matches: () => true, exact: true }, { offset: 0, limit: 5 })).toEqual({
      total: 0,
      items: [],
    });
  });

  it('files no key for a family whose value is undefined, and files it once a change gives one', () => {
    const log = new KeyedLog<Row>(options);
    const rows: Row[] = [
      { id: 1, app: 'a', time: minute(1) },
      { id: 2, app: 'a', tag: 'x', time: minute(2) },
      { id: 3, app: 'b', time: minute(3) },
    ];
    for (const row of rows) log.add(row);
    const page = { offset: 0, limit: 10 };
    expect(log.query(byTag('x'), page).items.map((r) => r.id)).toEqual([2]);
    expect(log.query({ keys: [[0, 'a']], matches: (r) => r.app === 'a', exact: true }, page).total).toBe(2);
    // Row 3 gains a tag, then loses it again.
    expect(log.update(0, 'b', (r) => (r.tag = 'x'))).toBe(rows[2]);
    expect(log.query(byTag('x'), page).items.map((r) => r.id)).toEqual([2, 3]);
    expect(log.update(0, 'b', (r) => delete r.tag)).toBe(rows[2]);
    expect(log.query(byTag('x'), page).items.map((r) => r.id)).toEqual([2]);
    expect(log.newest(1, 'x')).toBe(rows[1]);
    expect(log.newest(1, 'y')).toBeUndefined();
  });

  it('lists the candidates of a time range as a list of just those records', () => {
    const log = new KeyedLog<Row>(options);
    const rows = [1, 2, 3, 4, 5].map((m) => ({ id: m, app: 'a', time: minute(m) }));
    for (const row of rows) log.add(row);
    const q = { keys: [[0, 'a']] as [number, string][], matches: () => true, exact: true };
    expect(log.candidates({ ...q, since: minute(3) }, false)).toEqual(rows.slice(2));
    expect(log.candidates({ ...q, since: minute(2), until: minute(4) }, true)).toEqual(rows.slice(1, 4).reverse());
    expect(log.candidates({ ...q, since: minute(6) }, false)).toEqual([]);
  });
});
