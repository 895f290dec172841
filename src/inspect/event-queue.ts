/**
 * The queue between the event bus and one stream client that may read slowly: bounded (past
 * `max` waiting items new ones are counted as dropped, not kept, so memory stays bounded
 * whatever the client does), and an item leaves it the moment it is taken (a reader that
 * never catches up must not keep every sent one alive).
 */
export interface EventQueue<T> {
  /** Adds an item, or counts it as dropped when `max` are waiting. Ignored once closed. */
  push(item: T): void;
  /** The oldest waiting item, removed; undefined when none waits. */
  take(): T | undefined;
  /** How many were dropped since the last call (and resets the count). */
  takeDropped(): number;
  readonly size: number;
  /** Resolves at the next push or at close (at once if either already happened). */
  whenReady(): Promise<void>;
  close(): void;
  readonly closed: boolean;
}

export function createEventQueue<T>(max: number): EventQueue<T> {
  let items: (T | undefined)[] = [];
  let head = 0;
  let dropped = 0;
  let closed = false;
  let wake: (() => void) | undefined;
  const signal = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  return {
    push(item) {
      if (closed) return;
      if (items.length - head >= max) dropped++;
      else items.push(item);
      signal();
    },
    take() {
      if (head === items.length) return undefined;
      const item = items[head];
      items[head++] = undefined;
      if (head === items.length) {
        items = [];
        head = 0;
      } else if (head > 1024 && head * 2 > items.length) {
        items = items.slice(head);
        head = 0;
      }
      return item;
    },
    takeDropped() {
      const n = dropped;
      dropped = 0;
      return n;
    },
    get size() {
      return items.length - head;
    },
    whenReady() {
      if (closed || items.length > head) return Promise.resolve();
      return new Promise<void>((resolve) => (wake = resolve));
    },
    close() {
      closed = true;
      signal();
    },
    get closed() {
      return closed;
    },
  };
}
