/**
 * Work on a whole trace (a million records written or checked) in slices of a few
 * milliseconds, the event loop given back between them, so /__health and every other
 * request keep being answered while it runs. The clock is read per record, not every so
 * many: one journal entry may carry a megabyte of bodies, and a hundred of them between two
 * reads held the loop for tens of milliseconds.
 */

/**
 * The longest a slice holds the event loop. Short: on a machine with more runnable processes
 * than cores, a request that comes while the emulator waits for a core is answered in the
 * first slice it gets back only if the slice in progress is short (bench, 1M-delivery export
 * at load 15 on 2 cores: /__health p99 92 ms with 5 ms slices, 42 ms with 1 ms; export time
 * the same within the noise).
 */
const SLICE_MS = 1;

export class Slices {
  #start = performance.now();

  /** Whether this slice has had its time (one clock read): then `await next()`. */
  spent(): boolean {
    return performance.now() - this.#start >= SLICE_MS;
  }

  /** Lets the requests that came meanwhile in (a later turn of the event loop), then starts a new slice. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#start = performance.now();
  }
}
