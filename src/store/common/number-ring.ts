/**
 * A first-in first-out list of numbers in a typed array that grows by doubling: 4 bytes an
 * item as Uint32, 8 as Float64, none of them an object the garbage collector walks (a
 * million-delivery index in JS arrays is a million slots it marks on every full collection).
 * Sizes are powers of two, so a position in the ring is a mask, not a division.
 */
type NumberArray = Uint32Array | Float64Array;

export class NumberRing {
  #items: NumberArray;
  #head = 0;
  #length = 0;
  readonly #make: (size: number) => NumberArray;

  constructor(make: (size: number) => NumberArray) {
    this.#make = make;
    this.#items = make(4);
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    if (this.#length === this.#items.length) this.#grow();
    this.#items[(this.#head + this.#length) & (this.#items.length - 1)] = value;
    this.#length++;
  }

  /** Drops the oldest item. */
  shift(): void {
    if (this.#length === 0) return;
    this.#head = (this.#head + 1) & (this.#items.length - 1);
    this.#length--;
    // Give memory back once most of the array is empty (a key whose records the cap dropped).
    if (this.#items.length > 64 && this.#length * 4 < this.#items.length) this.#resize(this.#items.length / 2);
  }

  /** The `i`-th oldest item (0 ≤ i < length). */
  at(i: number): number {
    return this.#items[(this.#head + i) & (this.#items.length - 1)]!;
  }

  /**
   * The first `i` ≥ `from` whose item is `value`, or -1. The typed array's own indexOf over
   * the ring's two stretches: ~0.3 ns an item where a loop through `at` takes ~3.
   */
  indexOf(value: number, from = 0): number {
    const [older, newer] = this.#stretches();
    const inOlder = from < older.length ? older.indexOf(value, Math.max(0, from)) : -1;
    if (inOlder >= 0) return inOlder;
    const inNewer = newer.indexOf(value, Math.max(0, from - older.length));
    return inNewer >= 0 ? older.length + inNewer : -1;
  }

  /** The items, oldest first, as an array of their own. */
  toArray(): number[] {
    const [older, newer] = this.#stretches();
    return [...older, ...newer];
  }

  /** The newest item, or `otherwise` when empty. */
  last(otherwise: number): number {
    return this.#length === 0 ? otherwise : this.at(this.#length - 1);
  }

  #grow(): void {
    this.#resize(this.#items.length * 2);
  }

  #resize(size: number): void {
    const next = this.#make(size);
    // Copied natively, stretch by stretch: a loop through `at` took a few ns an item, and a
    // store's rings double all the while it fills.
    const [older, newer] = this.#stretches();
    next.set(older);
    next.set(newer, older.length);
    this.#items = next;
    this.#head = 0;
  }

  /** The items as two views of the array, oldest first: from the head, then (when the ring wraps) from its start. */
  #stretches(): [NumberArray, NumberArray] {
    const items = this.#items;
    const end = this.#head + this.#length;
    if (end <= items.length) return [items.subarray(this.#head, end), items.subarray(0, 0)];
    return [items.subarray(this.#head), items.subarray(0, end - items.length)];
  }
}

export const uint32Ring = (): NumberRing => new NumberRing((n) => new Uint32Array(n));
export const float64Ring = (): NumberRing => new NumberRing((n) => new Float64Array(n));
