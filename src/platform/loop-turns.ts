/**
 * The store's background work (a body search, sealing packed blocks, catching an index up)
 * runs in slices of a few milliseconds on later turns of the event loop. Each piece of work
 * yielding on its own (setImmediate) is not enough: Node runs every immediate queued before a
 * turn's check phase in that phase, so 100 body searches under way at once held the loop for
 * 100 slices (~400 ms) between two reads of the sockets, and /__health waited that long.
 * One LoopTurns per store hands out one slice per turn, in the order they were asked for:
 * between two slices, the requests that came in are read and answered.
 */
export class LoopTurns {
  /** The tasks waiting, from #head on (the ones before it ran: dropped now and then). */
  #waiting: (() => void)[] = [];
  #head = 0;
  #scheduled = false;

  /** Runs `task` on a later turn of the event loop, after the tasks asked for before it, one per turn. */
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
    const task = this.#waiting[this.#head++]!;
    if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
      this.#waiting = this.#waiting.slice(this.#head);
      this.#head = 0;
    }
    this.#schedule();
    task();
  };
}
