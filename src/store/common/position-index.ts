/**
 * Key → ascending log positions (a keyed log's records under one filter key). A key seen once
 * holds a bare number, so a million one-off users cost no list each; oldest drops first. A
 * longer list is a ring of numbers in a typed array (number-ring.ts): nothing in it for the
 * garbage collector to walk, and nothing allocated while a log at its cap adds and drops.
 */
import { float64Ring, type NumberRing } from './number-ring.js';

export class PositionIndex {
  readonly #byKey = new Map<string, number | NumberRing>();

  add(key: string, position: number): void {
    const current = this.#byKey.get(key);
    if (current === undefined) this.#byKey.set(key, position);
    else if (typeof current === 'number') {
      const list = float64Ring();
      list.push(current);
      list.push(position);
      this.#byKey.set(key, list);
    } else current.push(position);
  }

  /** Forgets `position` under `key`: it must be the oldest there (the log drops oldest first). */
  removeOldest(key: string, position: number): void {
    const current = this.#byKey.get(key);
    if (current === position) this.#byKey.delete(key);
    else if (typeof current === 'object' && current.at(0) === position) {
      current.shift();
      if (current.length === 0) this.#byKey.delete(key);
    }
  }

  /**
   * Files `position` under `key` wherever it falls among the key's positions: for a record
   * whose keys changed after it was filed (a journal entry gaining a scenario). Costs the
   * key's positions when it lands before the newest; nothing else is touched.
   */
  insert(key: string, position: number): void {
    const current = this.#byKey.get(key);
    const newest = typeof current === 'number' ? current : current?.at(current.length - 1);
    if (newest === undefined || newest < position) return this.add(key, position);
    const positions = typeof current === 'number' ? [current] : current!.toArray();
    const at = firstAtOrAfter(positions, position);
    if (positions[at] === position) return;
    positions.splice(at, 0, position);
    this.#set(key, positions);
  }

  /** Forgets `position` under `key` wherever it is (a record that lost a key), at the cost of the key's positions. */
  remove(key: string, position: number): void {
    const current = this.#byKey.get(key);
    if (current === undefined || typeof current === 'number') {
      if (current === position) this.#byKey.delete(key);
      return;
    }
    const positions = current.toArray();
    const at = firstAtOrAfter(positions, position);
    if (positions[at] !== position) return;
    positions.splice(at, 1);
    this.#set(key, positions);
  }

  /** The newest position under `key`. */
  newest(key: string): number | undefined {
    const current = this.#byKey.get(key);
    return typeof current === 'number' || current === undefined ? current : current.at(current.length - 1);
  }

  /** The positions under `key` as a list by index, oldest first (read without a lookup per position). */
  list(key: string): { readonly count: number; at(i: number): number } {
    const current = this.#byKey.get(key);
    if (current === undefined) return { count: 0, at: () => Number.NaN };
    if (typeof current === 'number') return { count: 1, at: () => current };
    return { count: current.length, at: (i) => current.at(i) };
  }

  /** Files ascending `positions` under `key`, a bare number for one (as add() would have). */
  #set(key: string, positions: readonly number[]): void {
    if (positions.length === 0) this.#byKey.delete(key);
    else if (positions.length === 1) this.#byKey.set(key, positions[0]!);
    else {
      const list = float64Ring();
      for (const position of positions) list.push(position);
      this.#byKey.set(key, list);
    }
  }

  /** Ascending, or newest first with `desc`. */
  positions(key: string, desc = false): Iterable<number> {
    const current = this.#byKey.get(key);
    if (current === undefined) return [];
    if (typeof current === 'number') return [current];
    const positions = current.toArray();
    return desc ? positions.reverse() : positions;
  }
}

/** Where `position` is, or would go, in ascending `positions` (a binary search). */
export function firstAtOrAfter(positions: readonly number[], position: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (positions[mid]! < position) low = mid + 1;
    else high = mid;
  }
  return low;
}
