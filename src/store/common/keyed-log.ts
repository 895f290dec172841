/**
 * Records in arrival order, capped (oldest dropped first), each filed under a few keys in
 * position indexes (position-index.ts) so a filtered list reads only the positions of its
 * key, never the whole log. The indexes are brought up to date on a later turn after a
 * write (off the writer's answer), and by any query before it reads them: a query catches
 * up on at most what arrived since the last turn, never a whole log.
 *
 * Times (since/until) are answered by binary search within a key's positions while the
 * log's times ascend (the usual case: records are stamped as they arrive); a manual clock
 * moved back breaks the order, and then the time range is tested record by record.
 */
import type { ListResult, Page } from '../../domain/ports.js';
import { Deque } from './deque.js';
import { PositionIndex } from './position-index.js';
import { ScannedKeys } from './scanned-keys.js';
import { intersect } from './intersect.js';

/** A record's value for one key family: one key, several (e.g. every scenario of a journal entry), or none. */
export type KeyValue = string | readonly string[] | null | undefined;

export interface KeyedLogOptions<T> {
  maxRecords: number;
  /** How many key families keysOf fills: one position index each. */
  families: number;
  /**
   * A record's keys, one entry per family (a multi-valued family names each key once),
   * written into `into` when given: the log files one record at a time with one list.
   */
  keysOf(record: T, into?: KeyValue[]): readonly KeyValue[];
  /**
   * Families whose keys are ids, one per record: their positions are kept in a column and found
   * by scanning it (scanned-keys.ts), not filed in a map. @default none
   */
  scanned?: readonly number[];
  /** The record's time as ISO 8601 text (compared as text, as the filters do). */
  timeOf(record: T): string;
  /** Runs `task` on a later turn of the event loop. @default setImmediate */
  later?: (task: () => void) => void;
}

/** What a query asks of the log, worked out from a filter by the store that owns it. */
export interface KeyedQuery<T> {
  /** Keys every match is filed under ([family, key]); the one with fewest positions is read. */
  keys: readonly (readonly [number, string])[];
  /** The filter's whole test (keys and times included). */
  matches: (record: T) => boolean;
  /**
   * True when the one key of `keys` (every live record when there is none) and the time
   * range say all that `matches` tests: a range is then counted, not visited.
   */
  exact: boolean;
  /**
   * True when every key of `keys` together (the records filed under all of them) and the time
   * range say all that `matches` tests: the records common to the keys are then counted, not
   * tested one by one. @default false
   */
  covered?: boolean;
  since?: string;
  until?: string;
}

/** Positions to read, as a list by index (a key's positions, or the whole live range). */
interface Candidates {
  count: number;
  at(i: number): number;
}

/** A family's keys and their positions: in a map (position-index.ts) or a scanned column (scanned-keys.ts). */
interface KeyPositions {
  add(key: string, position: number): void;
  removeOldest(key: string, position: number): void;
  insert(key: string, position: number): void;
  remove(key: string, position: number): void;
  list(key: string): Candidates;
  newest(key: string): number | undefined;
}

export class KeyedLog<T> {
  #records = new Deque<T>();
  /** Position of the oldest live record; positions only grow, so the indexes never renumber. */
  #first = 0;
  #indexes: KeyPositions[];
  /** Records at the end the indexes have not taken in yet. */
  #unindexed = 0;
  // Stryker disable next-line BooleanLiteral: when the indexes catch up is a choice of speed (see add)
  #catchUpScheduled = false;
  /** Adjacent live records whose times descend: 0 means the log is in time order. */
  #disorder = 0;
  #dropped = 0;
  readonly #options: KeyedLogOptions<T>;
  /** The keys of the record being filed or unfiled (#file): one list for them all. */
  readonly #keys: KeyValue[];

  constructor(options: KeyedLogOptions<T>, initial: Iterable<T> = []) {
    this.#options = options;
    this.#keys = new Array<KeyValue>(options.families);
    this.#indexes = this.#newIndexes();
    for (const record of initial) this.#append(record);
    this.#catchUp();
  }

  get length(): number {
    return this.#records.length;
  }

  /** How many the cap has dropped. */
  get dropped(): number {
    return this.#dropped;
  }

  add(record: T): void {
    this.#append(record);
    // When the indexes catch up is a choice of speed: every read catches up first, and the
    // drop of a record they have not taken in yet leaves them alone.
    // Stryker disable next-line ConditionalExpression: a choice of speed (above)
    if (this.#catchUpScheduled) return;
    // Stryker disable next-line BooleanLiteral: a choice of speed (above)
    this.#catchUpScheduled = true;
    // Stryker disable next-line BlockStatement: a choice of speed (above)
    (this.#options.later ?? setImmediate)(() => {
      // Stryker disable next-line BooleanLiteral: a choice of speed (above)
      this.#catchUpScheduled = false;
      this.#catchUp();
    });
  }

  /** The newest record filed under `key` of `family`. */
  newest(family: number, key: string): T | undefined {
    const position = this.#newestPosition(family, key);
    return position === undefined ? undefined : this.#at(position);
  }

  #newestPosition(family: number, key: string): number | undefined {
    this.#catchUp();
    return this.#indexes[family]!.newest(key);
  }

  /**
   * Changes the newest record filed under `key` of `family` in place, then files it again
   * under the keys it gained and lost, and only those: the rest of the log and its other
   * keys stay as they are. The record's time must not change. Returns the record.
   */
  update(family: number, key: string, change: (record: T) => void): T | undefined {
    const position = this.#newestPosition(family, key); // caught up: the record is filed
    if (position === undefined) return undefined;
    const record = this.#at(position);
    const before = this.#options.keysOf(record);
    change(record);
    const after = this.#options.keysOf(record);
    for (let f = 0; f < after.length; f++) {
      const was = keyList(before[f]);
      const now = keyList(after[f]);
      for (const gone of was) if (!now.includes(gone)) this.#indexes[f]!.remove(gone, position);
      for (const added of now) if (!was.includes(added)) this.#indexes[f]!.insert(added, position);
    }
    return record;
  }

  query(q: KeyedQuery<T>, page: Page): ListResult<T> {
    const { candidates, low, high, answered } = this.#narrow(q);
    const desc = page.order === 'desc';
    const items: T[] = [];
    if (answered) {
      const total = high - low;
      for (let k = page.offset; k < total && items.length < page.limit; k++)
        items.push(this.#at(candidates.at(desc ? high - 1 - k : low + k)));
      return { total, items };
    }
    let total = 0;
    const end = page.offset + page.limit;
    for (let k = 0; k < high - low; k++) {
      const record = this.#at(candidates.at(desc ? high - 1 - k : low + k));
      if (!q.matches(record)) continue;
      if (total >= page.offset && total < end) items.push(record);
      total++;
    }
    return { total, items };
  }

  /**
   * The records a query's keys and times leave, in the page's order, as a list of their own:
   * for a test no index answers (a body search), run over many turns while the log goes on.
   */
  candidates(q: KeyedQuery<T>, desc: boolean): T[] {
    const { candidates, low, high } = this.#narrow(q);
    const records: T[] = new Array<T>(high - low);
    for (let k = 0; k < high - low; k++) records[k] = this.#at(candidates.at(desc ? high - 1 - k : low + k));
    return records;
  }

  /**
   * The fewest positions that hold every match (the one key's, or those common to every key
   * when the keys cover the filter, else the smallest key's), within the time range while
   * times ascend; `answered` when nothing is left to test.
   */
  #narrow(q: KeyedQuery<T>): { candidates: Candidates; low: number; high: number; answered: boolean } {
    this.#catchUp();
    let candidates = this.#allLive();
    const lists = q.keys.map(([family, key]) => this.#indexes[family]!.list(key));
    const common = !q.exact && q.covered === true && lists.length > 1;
    if (common) candidates = this.#common(lists);
    else
      for (const list of lists) {
        if (q.exact || list.count < candidates.count) candidates = list;
      }
    let low = 0;
    let high = candidates.count;
    const ordered = this.#disorder === 0;
    if (ordered && q.since !== undefined) low = this.#firstAtOrAfter(candidates, q.since, (t, b) => t >= b);
    if (ordered && q.until !== undefined) high = this.#firstAtOrAfter(candidates, q.until, (t, b) => t > b);
    const timed = ordered || (q.since === undefined && q.until === undefined);
    return { candidates, low, high: Math.max(low, high), answered: (q.exact || common) && timed };
  }

  /** The positions every list holds, read through the shortest. */
  #common(lists: Candidates[]): Candidates {
    // The shortest first is a choice of speed: intersect and `at` below read the first list, whichever it is.
    // Stryker disable next-line MethodExpression,ArrowFunction,ArithmeticOperator: a choice of speed (above)
    lists.sort((a, b) => a.count - b.count);
    const shortest = lists[0]!;
    const at = intersect(lists, this.#first);
    return { count: at.length, at: (k) => shortest.at(at[k]!) };
  }

  /** Newest first, until `found` says stop: for lookups the indexes do not cover. */
  findNewest(found: (record: T) => boolean): T | undefined {
    for (let i = this.#records.length - 1; i >= 0; i--) {
      const record = this.#records.at(i)!;
      if (found(record)) return record;
    }
    return undefined;
  }

  toArray(): T[] {
    return this.#records.toArray();
  }

  [Symbol.iterator](): Iterator<T> {
    return this.#records[Symbol.iterator]();
  }

  /** Keeps only the records `keep` accepts (the dropped count stays: clear() is not the cap). */
  retain(keep: (record: T) => boolean): void {
    const kept = this.#records.toArray().filter(keep);
    const dropped = this.#dropped;
    this.#records = new Deque();
    this.#indexes = this.#newIndexes();
    this.#first = 0;
    this.#unindexed = 0;
    this.#disorder = 0;
    for (const record of kept) this.#append(record);
    this.#catchUp();
    this.#dropped = dropped;
  }

  /** Forgets the dropped count too (reset). */
  resetDropped(): void {
    this.#dropped = 0;
  }

  /** Drops the oldest record whatever the cap says (the journal's body-size cap). */
  dropOldest(): T | undefined {
    const oldest = this.#records.at(0);
    if (oldest === undefined) return undefined;
    const indexed = this.#records.length > this.#unindexed;
    this.#records.shift();
    const next = this.#records.at(0);
    if (next !== undefined && this.#options.timeOf(next) < this.#options.timeOf(oldest)) this.#disorder--;
    if (indexed) this.#file(oldest, this.#first, (index, key, position) => index.removeOldest(key, position));
    else this.#unindexed--;
    this.#first++;
    this.#dropped++;
    return oldest;
  }

  #append(record: T): void {
    const last = this.#records.at(this.#records.length - 1);
    if (last !== undefined && this.#options.timeOf(record) < this.#options.timeOf(last)) this.#disorder++;
    this.#records.push(record);
    this.#unindexed++;
    while (this.#records.length > this.#options.maxRecords) this.dropOldest();
  }

  #catchUp(): void {
    const records = this.#records;
    for (let i = records.length - this.#unindexed; i < records.length; i++)
      this.#file(records.at(i)!, this.#first + i, (index, key, position) => index.add(key, position));
    this.#unindexed = 0;
  }

  #newIndexes(): KeyPositions[] {
    const scanned = this.#options.scanned ?? [];
    return Array.from({ length: this.#options.families }, (_, family) =>
      scanned.includes(family)
        ? new ScannedKeys((position, key) => keyList(this.#options.keysOf(this.#at(position))[family]).includes(key))
        : new PositionIndex(),
    );
  }

  #file(record: T, position: number, visit: (index: KeyPositions, key: string, position: number) => void): void {
    const keys = this.#options.keysOf(record, this.#keys);
    for (let f = 0; f < keys.length; f++) {
      const value = keys[f];
      if (value === null || value === undefined) continue;
      if (typeof value === 'string') visit(this.#indexes[f]!, value, position);
      else for (const key of value) visit(this.#indexes[f]!, key, position);
    }
  }

  #at(position: number): T {
    return this.#records.at(position - this.#first)!;
  }

  #allLive(): Candidates {
    const first = this.#first;
    return { count: this.#records.length, at: (i) => first + i };
  }

  /** The first candidate whose time passes `after` against `bound` (times ascend, so a binary search). */
  #firstAtOrAfter(candidates: Candidates, bound: string, after: (time: string, bound: string) => boolean): number {
    let low = 0;
    let high = candidates.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (after(this.#options.timeOf(this.#at(candidates.at(mid))), bound)) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}

/** A family's keys of one record as a list. */
const keyList = (value: KeyValue): readonly string[] =>
  value === null || value === undefined ? [] : typeof value === 'string' ? [value] : value;
