/**
 * A block of analytics events (analytics-log.ts): the records while it fills, then, on a later
 * turn, string columns (string-column.ts: ids as counters, apps, types and campaigns as
 * dictionaries, times as numbers), a few dozen heap objects instead of ~16,000. Each event's
 * links back to the previous event of its app and of its user, and which events clear(app)
 * has removed (dead), are kept beside the columns.
 */
import type { AnalyticsEvent } from '../../schemas/analytics.js';
import { sealFields, type StringColumn } from '../common/string-column.js';

export type Column = keyof AnalyticsEvent;
const COLUMNS: readonly Column[] = ['id', 'appId', 'campaignId', 'userId', 'channelType', 'eventType', 'createdAt'];

/** Which events of a block are dead, as bits; copied before a change while a snapshot holds them. */
export class DeadEvents {
  count = 0;
  shared = false;
  constructor(readonly bits: Uint8Array) {}
  has(i: number): boolean {
    return (this.bits[i >> 3]! & (1 << (i & 7))) !== 0;
  }
}

export class EventBlock {
  /** Distance back to the previous event of the same app, and of the same user in that app (0: none). */
  readonly appLink: Uint32Array;
  readonly userLink: Uint32Array;
  /** The records until sealed, then null. */
  #rows: AnalyticsEvent[] | null = [];
  #columns: Record<Column, StringColumn> | null = null;
  /** The columns sealed so far while a seal is under way (see seal()). */
  #sealed: Partial<Record<Column, StringColumn>> = {};
  /** Null until an event of the block dies. */
  #dead: DeadEvents | null = null;

  constructor(private readonly size: number) {
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

  isDead(i: number): boolean {
    return this.#dead?.has(i) ?? false;
  }

  /** Marks event `i` dead (clear(app)); false when it already was. */
  kill(i: number): boolean {
    if (this.isDead(i)) return false;
    if (this.#dead === null) this.#dead = new DeadEvents(new Uint8Array(Math.ceil(this.size / 8)));
    else if (this.#dead.shared) {
      const copy = new DeadEvents(this.#dead.bits.slice());
      copy.count = this.#dead.count;
      this.#dead = copy;
    }
    this.#dead.bits[i >> 3]! |= 1 << (i & 7);
    this.#dead.count++;
    return true;
  }

  /** The dead events as of now, for a snapshot read over later turns (null: none). */
  freezeDead(): DeadEvents | null {
    if (this.#dead !== null) this.#dead.shared = true;
    return this.#dead;
  }

  /** Seals the block into columns, one at a time until `spent` says stop; whether it is done. */
  seal(spent: () => boolean): boolean {
    const rows = this.#rows;
    if (rows === null) return true;
    const columns = sealFields(COLUMNS, this.#sealed, (column) => rows.map((e) => e[column]), spent);
    if (columns === null) return false;
    this.#columns = columns;
    this.#rows = null;
    this.#sealed = {};
    return true;
  }
}
