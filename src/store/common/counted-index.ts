/**
 * Key → the entries filed under it (their sequence numbers, oldest first), with the members
 * and failed members those entries hold counted cumulatively. A filtered total is then two
 * reads, and the entry holding the n-th match a binary search, however many entries a key
 * has: the delivery log files each send (a run of many deliveries, or one) under every value
 * its filters can name (delivery-index.ts).
 *
 * Kept small for the common case, a realtime send (one delivery, sent): its key seen once is a
 * bare number in the map, a key's sequence numbers take 4 bytes each (Uint32, compared
 * relative to the oldest, so they may wrap), and the cumulative columns exist only once a key
 * has met a run or a failure.
 */
import { uint32Ring, type NumberRing } from './number-ring.js';

/** A key's entries read by index: i from 0 (oldest) to count. */
export interface KeyEntries {
  readonly count: number;
  /** Sequence number (mod 2^32) of the i-th entry. */
  at(i: number): number;
  /** Members of the entries before the i-th (0 ≤ i ≤ count), as they were added. */
  membersBefore(i: number): number;
  /** Failed members of the entries before the i-th. */
  failedBefore(i: number): number;
  /** Every entry is one delivery, sent: the counts before i are i and 0. */
  readonly plain: boolean;
}

/**
 * A column of running totals, relative to the last value dropped, each kept mod 2^32 in 4
 * bytes: a difference of two is right while a key's live members stay under 2^32 (the
 * retention cap keeps them far under), however far the totals have run since the start. A
 * realtime send files under each of its keys, so a million of them kept 8 bytes more per key
 * and column as 64-bit numbers.
 */
class Cumulative {
  readonly #through: NumberRing = uint32Ring();
  #base = 0;

  /** A column for a key that already holds `count` entries adding nothing. */
  constructor(count: number) {
    for (let i = 0; i < count; i++) this.#through.push(0);
  }

  push(amount: number): void {
    // A Uint32Array keeps the total mod 2^32.
    this.#through.push(this.#through.last(this.#base) + amount);
  }

  shift(): void {
    this.#base = this.#through.at(0);
    this.#through.shift();
  }

  /** The total of the items before the i-th. */
  before(i: number): number {
    return i === 0 ? 0 : (this.#through.at(i - 1) - this.#base) >>> 0;
  }
}

class ListedEntries implements KeyEntries {
  readonly #seqs: NumberRing = uint32Ring();
  /** Members beyond one per entry; null while every entry has been a single delivery. */
  #extra: Cumulative | null = null;
  #failed: Cumulative | null = null;

  get count(): number {
    return this.#seqs.length;
  }

  get plain(): boolean {
    return this.#extra === null && this.#failed === null;
  }

  push(seq: number, members: number, failed: number): void {
    if (members !== 1 && this.#extra === null) this.#extra = new Cumulative(this.#seqs.length);
    if (failed !== 0 && this.#failed === null) this.#failed = new Cumulative(this.#seqs.length);
    this.#seqs.push(seq);
    this.#extra?.push(members - 1);
    this.#failed?.push(failed);
  }

  shift(): void {
    this.#seqs.shift();
    this.#extra?.shift();
    this.#failed?.shift();
  }

  at(i: number): number {
    return this.#seqs.at(i);
  }

  membersBefore(i: number): number {
    return i + (this.#extra?.before(i) ?? 0);
  }

  failedBefore(i: number): number {
    return this.#failed?.before(i) ?? 0;
  }
}

const NONE: KeyEntries = { count: 0, at: () => Number.NaN, membersBefore: () => 0, failedBefore: () => 0, plain: true };

/** The one entry of a key seen once (a single delivery, sent). */
const bareEntry = (seq: number): KeyEntries => ({
  count: 1,
  at: () => seq,
  membersBefore: (i) => (i === 0 ? 0 : 1),
  failedBefore: () => 0,
  plain: true,
});

export class CountedIndex {
  readonly #byKey = new Map<string, number | ListedEntries>();

  /** Files entry `seq` (holding `members` deliveries, `failed` of them failed) under `key`. */
  add(key: string, seq: number, members: number, failed: number): void {
    const current = this.#byKey.get(key);
    const stored = seq >>> 0;
    if (current === undefined && members === 1 && failed === 0) {
      this.#byKey.set(key, stored);
      return;
    }
    let list: ListedEntries;
    if (current instanceof ListedEntries) list = current;
    else {
      list = new ListedEntries();
      if (current !== undefined) list.push(current, 1, 0);
      this.#byKey.set(key, list);
    }
    list.push(stored, members, failed);
  }

  /** Forgets the oldest entry under `key` (the log drops oldest first): it must be `seq`. */
  removeOldest(key: string, seq: number): void {
    const current = this.#byKey.get(key);
    if (current === undefined) return;
    if (typeof current === 'number') {
      if (current === seq >>> 0) this.#byKey.delete(key);
      return;
    }
    if (current.at(0) === seq >>> 0) current.shift();
    if (current.count === 0) this.#byKey.delete(key);
  }

  entries(key: string): KeyEntries {
    const current = this.#byKey.get(key);
    if (current === undefined) return NONE;
    return typeof current === 'number' ? bareEntry(current) : current;
  }

  count(key: string): number {
    const current = this.#byKey.get(key);
    return current === undefined ? 0 : typeof current === 'number' ? 1 : current.count;
  }

  keys(): IterableIterator<string> {
    return this.#byKey.keys();
  }
}
