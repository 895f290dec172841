/**
 * The variables of a sealed block of records: a campaign's recipients (recipient-block.ts),
 * and realtime sends (single-block.ts). An upload's rows share
 * their keys (the CSV header, an optional cell left empty leaving its key out) in one order,
 * so such a block keeps one column per key (string-column.ts: text as given, any other value
 * as its JSON text, written once for a value rows share) and builds each row's object when it
 * is read. A block whose rows name their keys in conflicting orders keeps each row's JSON
 * text. Writing every row's JSON was half the time of sealing a block, and a column per key
 * also packs a value that repeats (a city, a banner) once.
 */
import { DeflatableColumn, sealStrings, type StringColumn } from './string-column.js';

export interface VariablesColumn {
  readonly length: number;
  at(index: number): Record<string, unknown>;
  /** Deflates its long text columns one at a time until `spent` says stop; whether all are done. */
  deflate(spent: () => boolean): boolean;
}

/** Deflates each of `columns` not yet tried, until `spent` says stop; whether all are done. */
function deflateEach(columns: readonly StringColumn[], spent: () => boolean): boolean {
  for (const column of columns) {
    if (!(column instanceof DeflatableColumn) || column.tried) continue;
    if (spent()) return false;
    column.deflate();
  }
  return true;
}

type Variables = Record<string, unknown>;
interface Row {
  variables: Variables;
}

/** A key's values, by row: what each is, and its text (the value itself, or its JSON). */
const ABSENT = 0;
const TEXT = 1;
const JSON_VALUE = 2;

interface KeyColumn {
  /** ABSENT, TEXT or JSON_VALUE per row; null when every row holds text. */
  kinds: Uint8Array | null;
  texts: StringColumn;
}

/** One column per key, the keys in the rows' own order. */
class KeyedColumns implements VariablesColumn {
  constructor(
    private readonly keys: readonly string[],
    private readonly columns: readonly KeyColumn[],
    readonly length: number,
  ) {}
  at(index: number): Variables {
    const variables: Variables = {};
    for (let k = 0; k < this.keys.length; k++) {
      const { kinds, texts } = this.columns[k]!;
      const kind = kinds === null ? TEXT : kinds[index];
      if (kind === TEXT) variables[this.keys[k]!] = texts.at(index);
      else if (kind === JSON_VALUE) variables[this.keys[k]!] = JSON.parse(texts.at(index));
    }
    return variables;
  }
  deflate(spent: () => boolean): boolean {
    return deflateEach(
      this.columns.map((c) => c.texts),
      spent,
    );
  }
}

/** Each row's JSON text; the usual `{}` (recipients added by id) as the empty string. */
class JsonColumn implements VariablesColumn {
  constructor(private readonly texts: StringColumn) {}
  get length(): number {
    return this.texts.length;
  }
  at(index: number): Variables {
    const text = this.texts.at(index);
    return text === '' ? {} : (JSON.parse(text) as Variables);
  }
  deflate(spent: () => boolean): boolean {
    return deflateEach([this.texts], spent);
  }
}

/**
 * Variables are read only when a page of recipients or of their deliveries is, never by a
 * send, and their text is most of what a recipient costs: their long columns may be deflated
 * once every block of the list is sealed (recipient-list.ts), and are kept so when smaller.
 */
const DEFLATABLE = { deflatable: true } as const;

/** Past this many keys in one block, rows keep their JSON (a column per key would cost more). */
const MAX_KEYS = 64;

/** The rows' values gathered by key in one pass (each row's keys read in its own order). */
interface Gathered {
  names: string[];
  /** The keys seen right after each key in some row: the order's edges. */
  next: Set<number>[];
  kinds: Uint8Array[];
  texts: string[][];
  /** Rows holding text, per key (all of them: no kinds needed). */
  textRows: number[];
}

/**
 * Each key's values, by row; null past MAX_KEYS keys or at `__proto__` (an own key JSON.parse
 * can give: assigning it would set the rebuilt object's prototype). A non-text value's JSON is
 * written once for rows that share it (an upload's image and action cells are shared objects).
 */
function gather(rows: readonly Row[]): Gathered | null {
  const ids = new Map<string, number>();
  const g: Gathered = { names: [], next: [], kinds: [], texts: [], textRows: [] };
  let lastValue: unknown = undefined;
  let lastJson = '';
  for (let i = 0; i < rows.length; i++) {
    const variables = rows[i]!.variables;
    let previous = -1;
    for (const key in variables) {
      let id = ids.get(key);
      if (id === undefined) {
        if (key === '__proto__' || g.names.length === MAX_KEYS) return null;
        id = g.names.push(key) - 1;
        ids.set(key, id);
        g.next.push(new Set());
        g.kinds.push(new Uint8Array(rows.length).fill(ABSENT));
        g.texts.push(new Array<string>(rows.length).fill(''));
        g.textRows.push(0);
      }
      if (previous >= 0) g.next[previous]!.add(id);
      previous = id;
      const value = variables[key];
      if (typeof value === 'string') {
        g.kinds[id]![i] = TEXT;
        g.texts[id]![i] = value;
        g.textRows[id]!++;
      } else if (value !== undefined) {
        if (value !== lastValue) [lastValue, lastJson] = [value, JSON.stringify(value)];
        g.kinds[id]![i] = JSON_VALUE;
        g.texts[id]![i] = lastJson;
      }
    }
  }
  return g;
}

/** The keys in an order each row's own keys follow (topological, over `next`); null when none fits. */
function keyOrder({ names, next }: Pick<Gathered, 'names' | 'next'>): number[] | null {
  const before = names.map(() => 0);
  for (const after of next) for (const id of after) before[id]!++;
  const order = names.flatMap((_, id) => (before[id] === 0 ? [id] : []));
  for (let r = 0; r < order.length; r++) for (const id of next[order[r]!]!) if (--before[id]! === 0) order.push(id);
  return order.length === names.length ? order : null;
}

/** The rows' values by key and the keys' order; null when the rows keep their JSON. */
function keyed(rows: readonly Row[]): { values: Gathered; order: number[] } | null {
  const values = gather(rows);
  const order = values && keyOrder(values);
  return order ? { values, order } : null;
}

/** The keys a block's columns would keep, in their order; null when the rows keep their JSON. */
export function sharedKeyOrder(rows: readonly Row[]): string[] | null {
  const found = keyed(rows);
  return found && found.order.map((id) => found.values.names[id]!);
}

/** A seal of one block's variables under way over several slices (see sealVariables). */
export interface VariablesSealing {
  /** undefined until the rows were gathered; null: kept as JSON text. */
  gathered?: { values: Gathered; order: number[] } | null;
  /** Keyed: the columns sealed so far, one per key in order. */
  done: KeyColumn[];
  /** JSON: the texts so far. */
  texts: string[];
}

export const startVariablesSealing = (): VariablesSealing => ({ done: [], texts: [] });

/**
 * Seals `rows`' variables over as many calls as `spent` asks (null: not done yet, call again
 * with the same `sealing`): a key's column at a time, or the JSON texts 64 rows at a time.
 */
export function sealVariables(
  rows: readonly Row[],
  sealing: VariablesSealing,
  spent: () => boolean,
): VariablesColumn | null {
  if (sealing.gathered === undefined) sealing.gathered = keyed(rows);
  if (sealing.gathered !== null) {
    const { values, order } = sealing.gathered;
    while (sealing.done.length < order.length) {
      if (spent()) return null;
      const id = order[sealing.done.length]!;
      const kinds = values.textRows[id] === rows.length ? null : values.kinds[id]!;
      sealing.done.push({ kinds, texts: sealStrings(values.texts[id]!, DEFLATABLE) });
    }
    return new KeyedColumns(
      order.map((id) => values.names[id]!),
      sealing.done,
      rows.length,
    );
  }
  const { texts } = sealing;
  while (texts.length < rows.length) {
    if (texts.length % 64 === 0 && spent()) return null;
    texts.push(jsonText(rows[texts.length]!.variables));
  }
  if (spent()) return null;
  return new JsonColumn(sealStrings(texts, DEFLATABLE));
}

function jsonText(variables: Variables): string {
  for (const _ in variables) return JSON.stringify(variables);
  return '';
}
