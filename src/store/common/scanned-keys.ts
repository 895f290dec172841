/**
 * Key → ascending log positions, as position-index.ts keeps them, for a family whose keys are
 * ids (a key per record): each filed position sits in a column beside a 32-bit hash of its key,
 * and a key's positions are found by scanning the hashes, each match checked against its
 * record (holds). Correct whatever the keys are; cheap to file, slower to read than a map.
 *
 * Why: in a map, a key per record is a new entry in a table of up to a hundred thousand (filed,
 * then dropped at the cap), a few cache misses each on the send's path, where the keys records
 * share stay in the cache. Scanned, the journal's and the notifications' ids cost the server
 * ~2 µs less a realtime send (docs/performance.md). A column is written in order and read only
 * by a query by id: ~0.04 ms to scan 100,000 hashes.
 */
import { float64Ring, uint32Ring, type NumberRing } from './number-ring.js';
import { firstAtOrAfter } from './position-index.js';

/** FNV-1a over the UTF-16 units: a few nanoseconds for an id, and ids that differ in one digit differ here. */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export class ScannedKeys {
  #hashes: NumberRing = uint32Ring();
  #positions: NumberRing = float64Ring();
  /** Whether the record at a live position has `key` in this family. */
  readonly #holds: (position: number, key: string) => boolean;

  constructor(holds: (position: number, key: string) => boolean) {
    this.#holds = holds;
  }

  add(key: string, position: number): void {
    // A log files in order (a record's keys share its position); anything else goes where it belongs.
    if (this.#positions.last(-1) > position) return this.insert(key, position);
    this.#hashes.push(keyHash(key));
    this.#positions.push(position);
  }

  /**
   * Forgets `position`: it must be the oldest (the log drops oldest first). A record with two
   * keys here has two entries at its position, one dropped per call, in either order.
   */
  removeOldest(_key: string, position: number): void {
    if (this.#positions.length === 0 || this.#positions.at(0) !== position) return;
    this.#hashes.shift();
    this.#positions.shift();
  }

  /** Files `position` under `key` wherever it falls (a record whose keys changed): costs the whole column. */
  insert(key: string, position: number): void {
    const { hashes, positions } = this.#columns();
    const hash = keyHash(key);
    // After every position up to `position` (positions are whole numbers).
    const at = firstAtOrAfter(positions, position + 1);
    for (let i = at - 1; i >= 0 && positions[i] === position; i--) if (hashes[i] === hash) return;
    hashes.splice(at, 0, hash);
    positions.splice(at, 0, position);
    this.#refill(hashes, positions);
  }

  /** Forgets `position` under `key` wherever it is (a record that lost a key): costs the whole column. */
  remove(key: string, position: number): void {
    const { hashes, positions } = this.#columns();
    const hash = keyHash(key);
    const at = positions.findIndex((p, i) => p === position && hashes[i] === hash);
    if (at < 0) return;
    hashes.splice(at, 1);
    positions.splice(at, 1);
    this.#refill(hashes, positions);
  }

  /** The positions under `key`, oldest first. */
  list(key: string): { readonly count: number; at(i: number): number } {
    const hash = keyHash(key);
    const found: number[] = [];
    for (let i = this.#hashes.indexOf(hash); i >= 0; i = this.#hashes.indexOf(hash, i + 1)) {
      const position = this.#positions.at(i);
      if (found.at(-1) !== position && this.#holds(position, key)) found.push(position);
    }
    return { count: found.length, at: (i) => found[i]! };
  }

  /** The newest position under `key`. */
  newest(key: string): number | undefined {
    const list = this.list(key);
    return list.count === 0 ? undefined : list.at(list.count - 1);
  }

  #columns(): { hashes: number[]; positions: number[] } {
    return { hashes: this.#hashes.toArray(), positions: this.#positions.toArray() };
  }

  #refill(hashes: readonly number[], positions: readonly number[]): void {
    this.#hashes = uint32Ring();
    this.#positions = float64Ring();
    for (let i = 0; i < hashes.length; i++) {
      this.#hashes.push(hashes[i]!);
      this.#positions.push(positions[i]!);
    }
  }
}
