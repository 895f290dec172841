/**
 * A typed array that grows without copying what it holds once it is large: its first page
 * doubles up to PAGE items, then whole pages are added. A million users' numbers in one
 * array that doubled meant allocating and copying ~40 MB in one step, ~40 ms during which no
 * request was answered (bench/: the fill over HTTP); a page is 16,384 items, well under a
 * millisecond. A small one (a campaign of ten recipients, an app of two users) stays small.
 */
type NumberArray = Uint32Array | Float64Array;

const PAGE_BITS = 14;
const PAGE = 1 << PAGE_BITS;
const MASK = PAGE - 1;

export class PagedArray {
  #pages: NumberArray[];
  /** Items there is room for. */
  #capacity: number;

  constructor(private readonly make: (size: number) => NumberArray) {
    this.#pages = [make(16)];
    this.#capacity = 16;
  }

  get(i: number): number {
    return this.#pages[i >>> PAGE_BITS]![i & MASK]!;
  }

  set(i: number, value: number): void {
    this.#pages[i >>> PAGE_BITS]![i & MASK] = value;
  }

  /** Makes room for items [0, length); new items read 0. */
  reserve(length: number): void {
    while (this.#capacity < length) {
      if (this.#capacity < PAGE) {
        const first = this.make(this.#capacity * 2);
        first.set(this.#pages[0]!);
        this.#pages[0] = first;
        this.#capacity *= 2;
      } else {
        this.#pages.push(this.make(PAGE));
        this.#capacity += PAGE;
      }
    }
  }
}
