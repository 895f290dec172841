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

  /** Ascending, or newest first with `desc`. */
  positions(key: string, desc = false): Iterable<number> {
    const current = this.#byKey.get(key);
    if (current === undefined) return [];
    if (typeof current === 'number') return [current];
    return desc ? current.reversed() : current;
  }
}
