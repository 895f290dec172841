/**
 * The keys a record is filed under for its filters (keyed-log.ts), and the keys a filter
 * reads: each field alone, and each field within one app (an app's realtime notifications
 * are one key, not the intersection of two long lists walked record by record).
 */
import type { KeyValue } from './keyed-log.js';

export interface KeyField<R> {
  valueOf(record: R): KeyValue;
  /** Also filed per app: for fields a filter names with an app (not ids: unique already). */
  withApp: boolean;
}

const SEP = '\u0000';

export interface FilterKeys<R> {
  /** How many key families: the app, each field, each field within an app. */
  families: number;
  keysOf(record: R): KeyValue[];
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
  return {
    families,
    keysOf(record) {
      const app = appOf(record);
      const keys: KeyValue[] = [app];
      for (const field of fields) keys.push(field.valueOf(record));
      fields.forEach((field, i) => {
        if (!field.withApp) return;
        const value = keys[1 + i];
        if (app === null || value === null || value === undefined) keys.push(null);
        else if (typeof value === 'string') keys.push(app + SEP + value);
        else keys.push((value as readonly string[]).map((v) => app + SEP + v));
      });
      return keys;
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
}
