/**
 * An append-only list whose oldest items can be dropped in O(1) amortised, so the
 * retention cap and the per-key indexes stay cheap at a million records.
 */
export class Deque<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  shift(): T | undefined {
    if (this.length === 0) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head] = undefined;
    this.#head++;
    // Compact once the dead prefix dominates, so memory is returned.
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  at(index: number): T | undefined {
    return index < 0 || index >= this.length ? undefined : this.#items[this.#head + index];
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.#head; i < this.#items.length; i++) yield this.#items[i] as T;
  }

  /** Newest first. */
  *reversed(): IterableIterator<T> {
    for (let i = this.#items.length - 1; i >= this.#head; i--) yield this.#items[i] as T;
  }

  toArray(): T[] {
    return this.#items.slice(this.#head) as T[];
  }
}
