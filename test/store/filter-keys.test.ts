/**
 * The keys a record is filed under and the keys a filter reads (src/store/common/filter-keys.ts):
 * a field alone, and a field within its app when the field is filed per app.
 */
import { describe, expect, it } from 'vitest';
import { filterKeys, type KeyField } from '../../src/store/common/filter-keys.js';
import type { KeyValue } from '../../src/store/common/keyed-log.js';

interface Rec {
  app: string | null;
  id?: string;
  kind?: string | null;
  tags?: readonly string[];
}

const SEP = '\u0000';
/** Families: 0 the app, 1 id, 2 kind, 3 tags; 4 kind within the app, 5 tags within the app. */
const FIELDS: KeyField<Rec>[] = [
  { valueOf: (r) => r.id, withApp: false },
  { valueOf: (r) => r.kind, withApp: true },
  { valueOf: (r): KeyValue => r.tags, withApp: true },
];
const keys = filterKeys<Rec>((r) => r.app, FIELDS);

describe('filterKeys', () => {
  it('counts the app, each field, and each field filed within an app as a family', () => {
    expect(keys.families).toBe(6);
    expect(filterKeys<Rec>((r) => r.app, []).families).toBe(1);
    expect(filterKeys<Rec>((r) => r.app, [{ valueOf: (r) => r.id, withApp: false }]).families).toBe(2);
  });

  it('names the families of the fields that are ids, to be scanned', () => {
    expect(keys.scanned).toEqual([]);
    const withIds = filterKeys<Rec>(
      (r) => r.app,
      [
        { valueOf: (r) => r.kind, withApp: true },
        { valueOf: (r) => r.id, withApp: false, unique: true },
      ],
    );
    expect(withIds.scanned).toEqual([2]);
    // A keyed log is given them with the families and a keyer of its own.
    const forLog = withIds.forLog();
    expect([forLog.families, forLog.scanned]).toEqual([4, [2]]);
    expect(forLog.keysOf({ app: 'a', kind: 'k', id: 'n1' })).toEqual(['a', 'k', 'n1', `a${SEP}k`]);
  });

  it('files a record under its app, each field, and each per-app field within its app', () => {
    expect(keys.keyer()({ app: 'a', id: 'n1', kind: 'k', tags: ['x', 'y'] })).toEqual([
      'a',
      'n1',
      'k',
      ['x', 'y'],
      `a${SEP}k`,
      [`a${SEP}x`, `a${SEP}y`],
    ]);
  });

  it('files no per-app key for a value the record lacks, or a record without an app', () => {
    expect(keys.keyer()({ app: 'a', kind: null })).toEqual(['a', undefined, null, undefined, null, null]);
    expect(keys.keyer()({ app: null, id: 'n', kind: 'k', tags: ['x'] })).toEqual([null, 'n', 'k', ['x'], null, null]);
    expect(keys.keyer()({ app: 'a', kind: 'k', tags: [] })).toEqual(['a', undefined, 'k', [], `a${SEP}k`, []]);
  });

  it('reads every record for no filter, and the one field for one', () => {
    expect(keys.keysFor(undefined, [undefined, undefined, undefined])).toEqual({ keys: [], exact: true });
    expect(keys.keysFor(undefined, [undefined, 'k', undefined])).toEqual({ keys: [[2, 'k']], exact: true });
    expect(keys.keysFor(undefined, ['n', undefined, undefined])).toEqual({ keys: [[1, 'n']], exact: true });
  });

  it('reads the app alone, or one field within the app as one key', () => {
    expect(keys.keysFor('a', [undefined, undefined, undefined])).toEqual({ keys: [[0, 'a']], exact: true });
    expect(keys.keysFor('a', [undefined, 'k', undefined])).toEqual({ keys: [[4, `a${SEP}k`]], exact: true });
    expect(keys.keysFor('a', [undefined, undefined, 'x'])).toEqual({ keys: [[5, `a${SEP}x`]], exact: true });
  });

  it('reads the app and a field not filed per app as two keys', () => {
    expect(keys.keysFor('a', ['n', undefined, undefined])).toEqual({
      keys: [
        [0, 'a'],
        [1, 'n'],
      ],
      exact: false,
    });
  });

  it('reads several fields each alone, and within the app when filed so', () => {
    expect(keys.keysFor(undefined, ['n', 'k', undefined])).toEqual({
      keys: [
        [1, 'n'],
        [2, 'k'],
      ],
      exact: false,
    });
    expect(keys.keysFor('a', [undefined, 'k', 'x'])).toEqual({
      keys: [
        [0, 'a'],
        [2, 'k'],
        [4, `a${SEP}k`],
        [3, 'x'],
        [5, `a${SEP}x`],
      ],
      exact: false,
    });
    expect(keys.keysFor('a', ['n', 'k', 'x'])).toEqual({
      keys: [
        [0, 'a'],
        [1, 'n'],
        [2, 'k'],
        [4, `a${SEP}k`],
        [3, 'x'],
        [5, `a${SEP}x`],
      ],
      exact: false,
    });
  });

  it('gives the same keys within apps however many it has built and forgotten', () => {
    const keysOf = keys.keyer();
    // Past the keys one keyer keeps (a few thousand), it forgets them and builds them again.
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 10_000; i++) {
        const app = `app-${i % 3}`;
        const tag = `t${i}`;
        expect(keysOf({ app, kind: 'k', tags: [tag] })).toEqual([
          app,
          undefined,
          'k',
          [tag],
          `${app}${SEP}k`,
          [`${app}${SEP}${tag}`],
        ]);
      }
  });
});
