/**
 * The store's background work (a body search, sealing packed blocks, catching an index up)
 * runs in slices of a few milliseconds on later turns of the event loop. Each piece of work
 * yielding on its own (setImmediate) is not enough: Node runs every immediate queued before a
 * turn's check phase in that phase, so 100 body searches under way at once held the loop for
 * 100 slices (~400 ms) between two reads of the sockets, and /__health waited that long.
 * One LoopTurns per store hands out turns in the order they were asked for, and a turn runs
 * the waiting tasks one after another for TURN_MS at most: between two turns, the requests
 * that came in are read and answered. The inspect reads take these turns too, so a burst of
 * queries is answered a few milliseconds of them at a time.
 */

/**
 * How long one turn runs waiting tasks before the rest wait for a later turn: a slice of
 * background work is about as long, an inspect query a fraction of it. One task per turn
 * instead made a burst of 100 queries wait for 100 turns, and in a turn the poll phase may
 * read a thousand sends (the soak: the slowest of 100 delivery-stats 1.0 s, 0.1 s before).
 */
const TURN_MS = 4;

export class LoopTurns {
  /** The tasks waiting, from #head on (the ones before it ran: dropped now and then). */
  #waiting: (() => void)[] = [];
  #head = 0;
  #scheduled = false;

  /** Runs `task` on a later turn of the event loop, after the tasks asked for before it. */
  later = (task: () => void): void => {
    this.#waiting.push(task);
    this.#schedule();
  };

  /** Resolves on a later turn, as `later` runs a task. */
  next(): Promise<void> {
    return new Promise((resolve) => this.later(resolve));
  }

  #schedule(): void {
    if (this.#scheduled || this.#head === this.#waiting.length) return;
    this.#scheduled = true;
    // An immediate queued while the check phase runs waits for the next turn: after the poll
    // phase has read the sockets.
    setImmediate(this.#turn);
  }

  readonly #turn = (): void => {
    this.#scheduled = false;
    const ends = performance.now() + TURN_MS;
    const runNext = (): void => {
      const task = this.#take();
      if (task === undefined) return;
      task();
      // The next one in this turn while it has time: as a microtask queued after those `task`
      // queued, so a query that waited on next() has run (and counts against the turn) first.
      if (performance.now() < ends) queueMicrotask(runNext);
      else this.#schedule();
    };
    runNext();
  };

  #take(): (() => void) | undefined {
    if (this.#head === this.#waiting.length) return undefined;
    const task = this.#waiting[this.#head++]!;
    if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
      this.#waiting = this.#waiting.slice(this.#head);
      this.#head = 0;
    }
    return task;
  }
}
