/**
 * Key → ascending log positions (a user's deliveries, an app's entries). A key seen once
 * holds a bare number, so a million one-off users cost no list each; oldest drops first.
 */
import { Deque } from './deque.js';

export class PositionIndex {
  readonly #byKey = new Map<string, number | Deque<number>>();

  add(key: string, position: number): void {
    const current = this.#byKey.get(key);
    if (current === undefined) this.#byKey.set(key, position);
    else if (typeof current === 'number') {
      const list = new Deque<number>();
      list.push(current);
      list.push(position);
      this.#byKey.set(key, list);
    } else current.push(position);
  }

  /** Forgets `position` under `key`: it must be the oldest there (the log drops oldest first). */
  removeOldest(key: string, position: number): void {
    const current = this.#byKey.get(key);
    if (current === position) this.#byKey.delete(key);
    else if (current instanceof Deque && current.at(0) === position) {
      current.shift();
      if (current.length === 0) this.#byKey.delete(key);
    }
  }

  count(key: string): number {
    const current = this.#byKey.get(key);
    return current === undefined ? 0 : typeof current === 'number' ? 1 : current.length;
  }

  /** The `i`-th position under `key`, oldest first. */
  positionAt(key: string, i: number): number | undefined {
    const current = this.#byKey.get(key);
    if (typeof current === 'number') return i === 0 ? current : undefined;
    return current?.at(i);
  }

  /** The positions under `key` as a list by index, oldest first (read without a lookup per position). */
  list(key: string): { readonly count: number; at(i: number): number } {
    const current = this.#byKey.get(key);
    if (current === undefined) return { count: 0, at: () => Number.NaN };
    if (typeof current === 'number') return { count: 1, at: () => current };
    return { count: current.length, at: (i) => current.at(i)! };
  }

  /** Ascending, or newest first with `desc`. */
  positions(key: string, desc = false): Iterable<number> {
    const current = this.#byKey.get(key);
    if (current === undefined) return [];
    if (typeof current === 'number') return [current];
    return desc ? current.reversed() : current;
  }
}
