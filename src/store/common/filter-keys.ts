/**
 * The keys a record is filed under for its filters (keyed-log.ts), and the keys a filter
 * reads: each field alone, and each field within one app (an app's realtime notifications
 * are one key, not the intersection of two long lists walked record by record).
 */
import type { KeyedLogOptions, KeyValue } from './keyed-log.js';

export interface KeyField<R> {
  valueOf(record: R): KeyValue;
  /** Also filed per app: for fields a filter names with an app (not ids: unique already). */
  withApp: boolean;
  /**
   * An id: no two records share it, so its family is kept in a column the log scans
   * (scanned-keys.ts), not in a map with a key per record. @default false
   */
  unique?: boolean;
}

const SEP = '\u0000';

/** Past this many keys kept (a tag per send, say), they are all forgotten and built again as they come. */
const MOST_KEPT = 4096;

/**
 * A value's key within an app, the same text each time it is asked for. Built afresh, it is a
 * new string per record (twice: filed, then dropped), which the index hashes and flattens
 * before it can look it up: most of the garbage a realtime send left in the stores.
 * Forgetting them costs nothing but building them again: a key is its text, not its string.
 */
function keysWithinApps(): (app: string, value: string) => string {
  const byApp = new Map<string, Map<string, string>>();
  let count = 0;
  return (app, value) => {
    let key = byApp.get(app)?.get(value);
    if (key !== undefined) return key;
    if (count >= MOST_KEPT) {
      byApp.clear();
      count = 0;
    }
    let kept = byApp.get(app);
    if (kept === undefined) byApp.set(app, (kept = new Map()));
    key = app + SEP + value;
    kept.set(value, key);
    count++;
    return key;
  };
}

export interface FilterKeys<R> {
  /** How many key families: the app, each field, each field within an app. */
  families: number;
  /** The families of the fields that are ids (KeyField.unique). */
  scanned: number[];
  /**
   * A record's keys, one entry per family, for one log (each log makes its own): it keeps the
   * keys it built within each app, so that filing a record, and dropping it later, builds
   * no text for a key it has built before. Written into `into` when given (a log's own list,
   * read before it files the next record), else into a new list.
   */
  keyer(): (record: R, into?: KeyValue[]) => KeyValue[];
  /** What a keyed log needs to file records under these keys, ids scanned: for one log (a keyer of its own). */
  forLog(): Pick<KeyedLogOptions<R>, 'families' | 'scanned' | 'keysOf'>;
  /**
   * The keys of a filter (values in the order of the fields, undefined = not filtered on),
   * and whether its one key answers it alone (see KeyedQuery.exact).
   */
  keysFor(
    appId: string | undefined,
    values: readonly (string | undefined)[],
  ): { keys: [number, string][]; exact: boolean };
}

export function filterKeys<R>(appOf: (record: R) => string | null, fields: readonly KeyField<R>[]): FilterKeys<R> {
  /** Family of field i within an app, or -1. */
  const appFamily: number[] = [];
  let families = 1 + fields.length;
  for (const field of fields) appFamily.push(field.withApp ? families++ : -1);
  const scanned = fields.flatMap((field, i) => (field.unique === true ? [1 + i] : []));
  const filter: FilterKeys<R> = {
    families,
    scanned,
    forLog: () => ({ families, scanned, keysOf: filter.keyer() }),
    keyer() {
      const within = keysWithinApps();
      return (record, into) => {
        const app = appOf(record);
        // Sized once: pushing would grow it a few times per record.
        const keys = into ?? new Array<KeyValue>(families);
        keys[0] = app;
        for (let i = 0; i < fields.length; i++) {
          const value = fields[i]!.valueOf(record);
          keys[1 + i] = value;
          const family = appFamily[i]!;
          if (family < 0) continue;
          if (app === null || value === null || value === undefined) keys[family] = null;
          else if (typeof value === 'string') keys[family] = within(app, value);
          else keys[family] = (value as readonly string[]).map((v) => within(app, v));
        }
        return keys;
      };
    },
    keysFor(appId, values) {
      const named = values.flatMap((value, i) => (value === undefined ? [] : [i]));
      if (appId === undefined) {
        if (named.length <= 1) return { keys: named.map((i) => [1 + i, values[i]!] as [number, string]), exact: true };
      } else if (named.length === 0) return { keys: [[0, appId]], exact: true };
      else if (named.length === 1 && appFamily[named[0]!]! >= 0)
        return { keys: [[appFamily[named[0]!]!, appId + SEP + values[named[0]!]!]], exact: true };
      const keys: [number, string][] = [];
      if (appId !== undefined) keys.push([0, appId]);
      for (const i of named) {
        keys.push([1 + i, values[i]!]);
        if (appId !== undefined && appFamily[i]! >= 0) keys.push([appFamily[i]!, appId + SEP + values[i]!]);
      }
      return { keys, exact: false };
    },
  };
  return filter;
}
