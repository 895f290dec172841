/**
 * A first-in first-out list whose oldest items drop in O(1): the retention caps and the
 * per-key lists of the stores, at a million records.
 *
 * A ring in a JS array whose size is a power of two (a position in it is a mask, not a
 * division), as number-ring.ts is for numbers in typed arrays. A store at its cap adds one
 * and drops one per record, and a ring then allocates nothing: the array it replaced grew by
 * pushing and was copied down each time its dropped half filled up, a new array of the live
 * half every so many records, and each one large enough to be garbage only a full collection
 * frees.
 */
const SMALLEST = 4;
/** Above this size, a ring three quarters empty halves (memory goes back after a clear or a lower cap). */
const SHRINK_ABOVE = 64;

export class Deque<T> {
  #items: (T | undefined)[] = new Array<T | undefined>(SMALLEST);
  #head = 0;
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(item: T): void {
    if (this.#length === this.#items.length) this.#resize(this.#items.length * 2);
    this.#items[(this.#head + this.#length) & (this.#items.length - 1)] = item;
    this.#length++;
  }

  shift(): T | undefined {
    if (this.#length === 0) return undefined;
    const item = this.#items[this.#head];
    // Let go of it: the ring keeps its slot until a later push fills it.
    this.#items[this.#head] = undefined;
    this.#head = (this.#head + 1) & (this.#items.length - 1);
    this.#length--;
    if (this.#items.length > SHRINK_ABOVE && this.#length * 4 < this.#items.length)
      this.#resize(this.#items.length / 2);
    return item;
  }

  at(index: number): T | undefined {
    return index < 0 || index >= this.#length
      ? undefined
      : this.#items[(this.#head + index) & (this.#items.length - 1)];
  }

  /** Puts `item` in place of the one at `index` (which must be there). */
  set(index: number, item: T): void {
    if (index < 0 || index >= this.#length) throw new RangeError(`Deque.set: ${index} of ${this.#length}`);
    this.#items[(this.#head + index) & (this.#items.length - 1)] = item;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.#length; i++) yield this.at(i) as T;
  }

  /** Newest first. */
  *reversed(): IterableIterator<T> {
    for (let i = this.#length - 1; i >= 0; i--) yield this.at(i) as T;
  }

  toArray(): T[] {
    const items = new Array<T>(this.#length);
    for (let i = 0; i < this.#length; i++) items[i] = this.at(i) as T;
    return items;
  }

  #resize(size: number): void {
    const next = new Array<T | undefined>(size);
    for (let i = 0; i < this.#length; i++) next[i] = this.at(i);
    this.#items = next;
    this.#head = 0;
  }
}
