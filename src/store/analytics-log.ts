/**
 * Recorded analytics events in arrival order, capped (oldest dropped first), in blocks of
 * EVENT_BLOCK: the records while a block fills, then, on a later turn, string columns
 * (string-column.ts: ids as counters, apps, types and campaigns as dictionaries, times as
 * numbers), a few dozen heap objects a block instead of ~16,000.
 *
 * The indexes are chains: each event knows how far back the previous event of its app, and
 * of its user within its app, lies (two 4-byte links), and a map names each app's and
 * user's newest. A user's events are read by walking that chain, never the log; a lookup
 * for an event's twin walks it newest first and stops at the first match.
 */
import type { AnalyticsEvent } from '../schemas/analytics.js';
import { Deque } from './deque.js';
import { SealQueue } from './seal-queue.js';
import { sealStrings, type StringColumn } from './string-column.js';

/** Events per block (a test may pass fewer, to reach sealed blocks with little data). */
const EVENT_BLOCK = 2048;
type Column = keyof AnalyticsEvent;
const COLUMNS: readonly Column[] = ['id', 'appId', 'campaignId', 'userId', 'channelType', 'eventType', 'createdAt'];

class EventBlock {
  /** Distance back to the previous event of the same app, and of the same user in that app (0: none). */
  readonly appLink: Uint32Array;
  readonly userLink: Uint32Array;
  /** The records until sealed, then null. */
  #rows: AnalyticsEvent[] | null = [];
  #columns: Record<Column, StringColumn> | null = null;

  constructor(size: number) {
    this.appLink = new Uint32Array(size);
    this.userLink = new Uint32Array(size);
  }

  push(event: AnalyticsEvent): void {
    this.#rows!.push(event);
  }

  field(i: number, column: Column): string {
    return this.#rows === null ? this.#columns![column].at(i) : this.#rows[i]![column];
  }

  at(i: number): AnalyticsEvent {
    if (this.#rows !== null) return this.#rows[i]!;
    const c = this.#columns!;
    return {
      id: c.id.at(i),
      appId: c.appId.at(i),
      campaignId: c.campaignId.at(i),
      userId: c.userId.at(i),
      channelType: c.channelType.at(i) as AnalyticsEvent['channelType'],
      eventType: c.eventType.at(i) as AnalyticsEvent['eventType'],
      createdAt: c.createdAt.at(i),
    };
  }

  /** Seals the block into columns (a unit of the SealQueue: one block at a time). */
  seal(): boolean {
    const rows = this.#rows;
    if (rows === null) return true;
    const columns = {} as Record<Column, StringColumn>;
    for (const column of COLUMNS) columns[column] = sealStrings(rows.map((e) => e[column]));
    this.#columns = columns;
    this.#rows = null;
    return true;
  }
}

export class AnalyticsLog {
  #blocks = new Deque<EventBlock>();
  /** Position of the oldest live event; positions only grow. */
  #first = 0;
  #next = 0;
  #dropped = 0;
  /** Newest position of each app, and of each user within an app (keyed by the event's own strings). */
  #lastOfApp = new Map<string, number>();
  #lastOfUser = new Map<string, Map<string, number>>();
  readonly #unsealed = new SealQueue();

  constructor(
    private readonly maxEvents: number,
    initial: Iterable<AnalyticsEvent> = [],
    private readonly blockSize = EVENT_BLOCK,
  ) {
    for (const event of initial) this.add(event);
  }

  get length(): number {
    return this.#next - this.#first;
  }

  /** How many the cap has dropped (set when a log is rebuilt from another: clear() is not the cap). */
  get dropped(): number {
    return this.#dropped;
  }

  set dropped(count: number) {
    this.#dropped = count;
  }

  add(event: AnalyticsEvent): void {
    const position = this.#next++;
    if (position % this.blockSize === 0) this.#blocks.push(new EventBlock(this.blockSize));
    const block = this.#blocks.at(this.#blocks.length - 1)!;
    const i = position % this.blockSize;
    block.push(event);
    block.appLink[i] = link(this.#lastOfApp, event.appId, position);
    let users = this.#lastOfUser.get(event.appId);
    if (users === undefined) this.#lastOfUser.set(event.appId, (users = new Map()));
    block.userLink[i] = link(users, event.userId, position);
    if (i === this.blockSize - 1) this.#unsealed.add(block);
    while (this.length > this.maxEvents) this.#dropOldest();
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
    const positions = this.#chain(this.#lastOfUser.get(appId)?.get(userId), (b) => b.userLink);
    return positions.reverse().map((p) => this.#at(p));
  }

  /** The user's newest event within the app that `found` accepts (the chain walked newest first, up to it). */
  findOfUser(appId: string, userId: string, found: (field: (column: Column) => string) => boolean) {
    for (const p of this.#chain(this.#lastOfUser.get(appId)?.get(userId), (b) => b.userLink)) {
      const block = this.#blockOf(p);
      const i = p % this.blockSize;
      if (found((column) => block.field(i, column))) return block.at(i);
    }
    return undefined;
  }

  /** Every live event as of now, built one by one as iterated (later adds and drops do not show). */
  frozen(): Iterable<AnalyticsEvent> {
    const blocks = this.#blocks.toArray();
    const first = this.#first;
    const end = this.#next;
    const size = this.blockSize;
    const firstBlock = Math.floor(first / size);
    return {
      *[Symbol.iterator]() {
        for (let p = first; p < end; p++) yield blocks[Math.floor(p / size) - firstBlock]!.at(p % size);
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

  #dropOldest(): void {
    const p = this.#first;
    const block = this.#blockOf(p);
    const i = p % this.blockSize;
    const appId = block.field(i, 'appId');
    const userId = block.field(i, 'userId');
    if (this.#lastOfApp.get(appId) === p) this.#lastOfApp.delete(appId);
    const users = this.#lastOfUser.get(appId);
    if (users?.get(userId) === p) {
      users.delete(userId);
      if (users.size === 0) this.#lastOfUser.delete(appId);
    }
    this.#first++;
    this.#dropped++;
    if (this.#first % this.blockSize === 0) this.#blocks.shift();
  }
}

/** The distance back to the key's previous position (0: none), the key's newest now `position`. */
function link(last: Map<string, number>, key: string, position: number): number {
  const previous = last.get(key);
  last.set(key, position);
  return previous === undefined ? 0 : position - previous;
}
