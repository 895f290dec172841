/**
 * Work that packs stored records into columns (recipient blocks, analytics event blocks) on
 * later turns of the event loop, a slice of a few milliseconds each: the request that stored
 * them is answered first, and no turn is held long, whatever was stored at once (a
 * 100,000-row upload, a data file of a million events). The turns are the store's
 * (platform/loop-turns.ts), shared with its other background work.
 */
import { LoopTurns } from '../../platform/loop-turns.js';

/** Something with records to seal: seals until `spent` says stop, and says whether it is done. */
export interface Sealable {
  seal(spent: () => boolean): boolean;
}

/** How long one slice may hold the event loop (a block of 2,048 records takes about a millisecond). */
const SLICE_MS = 4;
/**
 * A slice while more than one item waits: the producer is outpacing the slices. Uploads back
 * to back (each in 10 ms turns of its own, csv-upload.ts) left up to four campaigns waiting,
 * their records unsealed, each holding slices of its upload's text: the live heap climbed to
 * ~235 MB, ~60 MB once all were sealed. Slices as long as the producer's turns give sealing
 * about half the time instead of under a third, and it keeps up (docs/performance.md#memory).
 */
const BACKLOG_SLICE_MS = 10;

export class SealQueue {
  readonly #waiting = new Set<Sealable>();
  #scheduled = false;

  /**
   * `maxWaiting`: adding past it seals the oldest waiting item at once. A producer that fills
   * blocks faster than the slices seal them (a loaded machine, where a slice holds less than a
   * block) would otherwise pile up records unsealed, at five times their sealed size.
   */
  constructor(
    private readonly maxWaiting = Infinity,
    private readonly turns = new LoopTurns(),
  ) {}

  add(item: Sealable): void {
    this.#waiting.add(item);
    if (this.#waiting.size > this.maxWaiting) {
      const [oldest] = this.#waiting;
      oldest!.seal(() => false);
      this.#waiting.delete(oldest!);
    }
    this.#schedule();
  }

  /** Forgets `item` (every item when none is named): its records were dropped. */
  delete(item?: Sealable): void {
    if (item === undefined) this.#waiting.clear();
    else this.#waiting.delete(item);
  }

  #schedule(): void {
    if (this.#scheduled || this.#waiting.size === 0) return;
    this.#scheduled = true;
    this.turns.later(() => this.#slice());
  }

  #slice(): void {
    this.#scheduled = false;
    const deadline = performance.now() + (this.#waiting.size > 1 ? BACKLOG_SLICE_MS : SLICE_MS);
    const spent = () => performance.now() >= deadline;
    for (const item of this.#waiting) {
      if (!item.seal(spent)) break;
      this.#waiting.delete(item);
    }
    this.#schedule();
  }
}
