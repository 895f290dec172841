/**
 * Recorded analytics events in arrival order, capped (oldest dropped first), in blocks of
 * EVENT_BLOCK sealed into columns (analytics-block.ts).
 *
 * The indexes are chains: each event knows how far back the previous event of its app, and
 * of its user within its app, lies (two 4-byte links); a map names each app's newest, and a
 * table per app each user's (newest-by-user.ts, which keeps no id string). A user's events
 * are read by walking that chain, never the log; a lookup for an event's twin walks it
 * newest first and stops at the first match.
 *
 * clear(app) walks the app's chain and marks its events dead, then forgets its chains: the
 * cost is the app's events, not the log's (a rebuild took ~1 s at a million). Dead events
 * are dropped for free when they reach the front, and the log is rebuilt from its live
 * events once a quarter of it is dead, so it never holds much more than its cap.
 */
import { LoopTurns } from '../../platform/loop-turns.js';
import type { AnalyticsEvent } from '../../schemas/analytics.js';
import { EventBlock, type Column, type DeadEvents } from './analytics-block.js';
import { Deque } from '../common/deque.js';
import { NewestByUser } from './newest-by-user.js';
import { SealQueue } from '../common/seal-queue.js';

/** Events per block (a test may pass fewer, to reach sealed blocks with little data). */
const EVENT_BLOCK = 2048;
/** Full blocks waiting to be sealed, at most (see SealQueue): ~6 MB of unsealed events. */
const MAX_UNSEALED_BLOCKS = 8;

export class AnalyticsLog {
  #blocks = new Deque<EventBlock>();
  /** Position of the oldest live event; positions only grow. */
  #first = 0;
  #next = 0;
  #dropped = 0;
  /** Dead events between #first and #next (clear(app)). */
  #dead = 0;
  /** Newest position of each app, and of each user within an app. */
  #lastOfApp = new Map<string, number>();
  #lastOfUser = new Map<string, NewestByUser>();
  readonly #userIdAt = (position: number): string => this.#blockOf(position).field(position % this.blockSize, 'userId');
  readonly #unsealed: SealQueue;

  constructor(
    private readonly maxEvents: number,
    initial: Iterable<AnalyticsEvent> = [],
    private readonly turns = new LoopTurns(),
    private readonly blockSize = EVENT_BLOCK,
  ) {
    this.#unsealed = new SealQueue(MAX_UNSEALED_BLOCKS, turns);
    for (const event of initial) this.add(event);
  }

  /** Live events. */
  get length(): number {
    return this.#next - this.#first - this.#dead;
  }

  /** How many the cap has dropped. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Appends `event`; a block it fills is sealed on a later turn, or at once with `sealNow`. */
  add(event: AnalyticsEvent, sealNow = false): void {
    const position = this.#next++;
    if (position % this.blockSize === 0) this.#blocks.push(new EventBlock(this.blockSize));
    const block = this.#blocks.at(this.#blocks.length - 1)!;
    const i = position % this.blockSize;
    block.push(event);
    block.appLink[i] = link(this.#lastOfApp, event.appId, position);
    let users = this.#lastOfUser.get(event.appId);
    if (users === undefined) this.#lastOfUser.set(event.appId, (users = new NewestByUser(this.#userIdAt)));
    block.userLink[i] = users.link(event.userId, position);
    if (i === this.blockSize - 1 && sealNow) block.seal(() => false);
    else if (i === this.blockSize - 1) this.#unsealed.add(block);
    while (this.length > this.maxEvents) this.#dropOldest();
    this.#dropDeadFront();
  }

  /** The app's events, oldest first, each built as it is iterated. */
  ofApp(appId: string): Iterable<AnalyticsEvent> {
    const positions = this.#chain(this.#lastOfApp.get(appId), (b) => b.appLink).reverse();
    const at = (p: number) => this.#at(p);
    return {
      *[Symbol.iterator]() {
        for (const p of positions) yield at(p);
      },
    };
  }

  /** The user's events within the app, oldest first. */
  ofUser(appId: string, userId: string): AnalyticsEvent[] {
    const positions = this.#chain(this.#lastOfUser.get(appId)?.newest(userId), (b) => b.userLink);
    return positions.reverse().map((p) => this.#at(p));
  }

  /** The user's newest event within the app that `found` accepts (the chain walked newest first, up to it). */
  findOfUser(appId: string, userId: string, found: (field: (column: Column) => string) => boolean) {
    for (const p of this.#chain(this.#lastOfUser.get(appId)?.newest(userId), (b) => b.userLink)) {
      const block = this.#blockOf(p);
      const i = p % this.blockSize;
      if (found((column) => block.field(i, column))) return block.at(i);
    }
    return undefined;
  }

  /** An empty log with this one's count of dropped events (clear() is not the cap). */
  emptied(): AnalyticsLog {
    const log = new AnalyticsLog(this.maxEvents, [], this.turns, this.blockSize);
    log.#dropped = this.#dropped;
    return log;
  }

  /**
   * Removes the app's events: each is marked dead along the app's chain and its chains are
   * forgotten. Answers this log, or a rebuild of its live events when a quarter of it was dead
   * (the dropped count kept: clear() is not the cap).
   */
  withoutApp(appId: string): AnalyticsLog {
    for (const p of this.#chain(this.#lastOfApp.get(appId), (b) => b.appLink))
      if (this.#blockOf(p).kill(p % this.blockSize)) this.#dead++;
    this.#lastOfApp.delete(appId);
    this.#lastOfUser.delete(appId);
    this.#dropDeadFront();
    if (this.#dead <= Math.max(this.blockSize, this.length / 4)) return this;
    const kept = this.emptied();
    // Sealed as they fill: half a million events built at once would wait for a later turn.
    for (const event of this.frozen()) kept.add(event, true);
    return kept;
  }

  /** Every live event as of now, built one by one as iterated (later adds, drops and clears do not show). */
  frozen(): Iterable<AnalyticsEvent> {
    const blocks = this.#blocks.toArray();
    const dead: (DeadEvents | null)[] = blocks.map((b) => b.freezeDead());
    const first = this.#first;
    const end = this.#next;
    const size = this.blockSize;
    const firstBlock = Math.floor(first / size);
    return {
      *[Symbol.iterator]() {
        for (let p = first; p < end; p++) {
          const b = Math.floor(p / size) - firstBlock;
          if (!dead[b]?.has(p % size)) yield blocks[b]!.at(p % size);
        }
      },
    };
  }

  #at(position: number): AnalyticsEvent {
    return this.#blockOf(position).at(position % this.blockSize);
  }

  #blockOf(position: number): EventBlock {
    return this.#blocks.at(Math.floor(position / this.blockSize) - Math.floor(this.#first / this.blockSize))!;
  }

  /** Positions from `newest` back along a chain while they are live, newest first. */
  #chain(newest: number | undefined, links: (block: EventBlock) => Uint32Array): number[] {
    const positions: number[] = [];
    for (let p = newest ?? -1; p >= this.#first;) {
      positions.push(p);
      const back = links(this.#blockOf(p))[p % this.blockSize]!;
      if (back === 0) break;
      p -= back;
    }
    return positions;
  }

  /** Drops the oldest event: counted, and its chains' heads forgotten when it was their newest; free when dead. */
  #dropOldest(): void {
    const p = this.#first;
    const block = this.#blockOf(p);
    const i = p % this.blockSize;
    if (block.isDead(i)) this.#dead--;
    else {
      const appId = block.field(i, 'appId');
      const userId = block.field(i, 'userId');
      if (this.#lastOfApp.get(appId) === p) this.#lastOfApp.delete(appId);
      const users = this.#lastOfUser.get(appId);
      users?.dropped(userId, p);
      if (users?.size === 0) this.#lastOfUser.delete(appId);
      this.#dropped++;
    }
    this.#first++;
    if (this.#first % this.blockSize !== 0) return;
    // A block dropped before its turn to be sealed is not sealed.
    const gone = this.#blocks.shift();
    if (gone !== undefined) this.#unsealed.delete(gone);
  }

  /** Drops the dead events at the front: they hold memory and no one reads them. */
  #dropDeadFront(): void {
    while (this.#first < this.#next && this.#blockOf(this.#first).isDead(this.#first % this.blockSize))
      this.#dropOldest();
  }
}

/** The distance back to the key's previous position (0: none), the key's newest now `position`. */
function link(last: Map<string, number>, key: string, position: number): number {
  const previous = last.get(key);
  last.set(key, position);
  return previous === undefined ? 0 : position - previous;
}
