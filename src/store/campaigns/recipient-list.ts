/**
 * One campaign's recipients in blocks of RECIPIENT_BLOCK (recipient-block.ts), sealed into
 * columns on later turns. Each block counts its recipients by status, so a page by status
 * skips the blocks before it and a campaign's counters are sums over a few hundred blocks,
 * not a pass over a million recipients. Lookups by user go through a table of numbers that
 * keeps no id (user-numbers.ts: a recipient's number is its position, its id read back from
 * its block), built on first use: ~12 bytes a recipient, where a Set of the ids took ~55;
 * lookups by id guess the position after the last one
 * found (a campaign send updates its recipients in order).
 */
import type { Recipient } from '../../schemas/records.js';
import type {
  ListResult,
  Page,
  PendingRecipients,
  RecipientList,
  RecipientOutcomes,
  RecipientUpdate,
} from '../../domain/ports.js';
import { RECIPIENT_BLOCK, RecipientBlock, recordsOf, type FrozenBlock } from './recipient-block.js';
import { statusCodeOf, StringTable } from './recipient-changes.js';
import { UserNumbers } from '../common/user-numbers.js';

/** No recipient is pending (a campaign with none, or all of them sent or failed). */
export const NO_PENDING: PendingRecipients = Object.freeze({
  positions: [],
  userIds: [],
  variables: Object.freeze({ all: {} }),
});

export class CampaignRecipients implements RecipientList {
  readonly #blocks: RecipientBlock[] = [];
  readonly #table = new StringTable();
  #length = 0;
  /** Where the next lookup by id looks first. */
  #next = 0;
  /** Built on the first lookup by user: an upload into an empty campaign never needs it. */
  #users: UserNumbers | null = null;
  /** Blocks from this index on may hold unsealed records. */
  #firstUnsealed = 0;
  /** Blocks from this index on may hold variables not yet deflated. */
  #firstUndeflated = 0;
  /** No block before this one holds a pending recipient (a send settles them in order). */
  #firstPending = 0;

  /** `blockSize`: recipients per block (a test may pass fewer, to reach many blocks with little data). */
  constructor(private readonly blockSize = RECIPIENT_BLOCK) {}

  get length(): number {
    return this.#length;
  }

  /** Appends `rows` (the list is not kept: an upload's array is sliced into blocks). */
  add(rows: readonly Recipient[]): void {
    const lastLength = this.#blocks.at(-1)?.length ?? this.blockSize;
    // A last block with room takes the first rows (and is opened again if sealed).
    const firstTouched = lastLength < this.blockSize ? this.#blocks.length - 1 : this.#blocks.length;
    let done = 0;
    while (done < rows.length) {
      const last = this.#blocks.at(-1);
      const room = last === undefined ? 0 : this.blockSize - last.length;
      const take = Math.min(room > 0 ? room : this.blockSize, rows.length - done);
      const part = rows.slice(done, done + take);
      if (room > 0) last!.push(part);
      else this.#blocks.push(new RecipientBlock(part, this.#table));
      const users = this.#users;
      // Numbered in order and never freed: each recipient's number is its position.
      if (users !== null) for (const row of part) users.add(row.userId);
      this.#length += take;
      done += take;
    }
    if (rows.length > 0) {
      this.#firstUnsealed = Math.min(this.#firstUnsealed, firstTouched);
      this.#firstUndeflated = Math.min(this.#firstUndeflated, firstTouched);
      this.#firstPending = Math.min(this.#firstPending, firstTouched);
    }
  }

  at(position: number): Recipient | undefined {
    if (position < 0 || position >= this.#length) return undefined;
    return this.#blocks[Math.floor(position / this.blockSize)]!.at(position % this.blockSize);
  }

  *[Symbol.iterator](): Iterator<Recipient> {
    for (let p = 0; p < this.#length; p++) yield this.at(p)!;
  }

  has(userId: string): boolean {
    if (this.#users === null) {
      const users = new UserNumbers((p) => this.#userIdAt(p));
      for (let p = 0; p < this.#length; p++) users.add(this.#userIdAt(p));
      this.#users = users;
    }
    return this.#users.numberOf(userId) >= 0;
  }

  count(status: string | undefined): number {
    if (status === undefined) return this.#length;
    const s = statusCodeOf(status);
    if (s === undefined) return 0;
    let total = 0;
    for (const block of this.#blocks) total += block.counts[s]!;
    return total;
  }

  /** A page of the recipients with `status` (all without): blocks without one are skipped by their counts. */
  page(status: string | undefined, page: Page): ListResult<Recipient> {
    const s = status === undefined ? -1 : (statusCodeOf(status) ?? -2);
    const total = s === -2 ? 0 : this.count(status);
    const items: Recipient[] = [];
    const desc = page.order === 'desc';
    let skip = page.offset;
    for (let k = 0; k < this.#blocks.length && items.length < page.limit && skip < total; k++) {
      const b = desc ? this.#blocks.length - 1 - k : k;
      const block = this.#blocks[b]!;
      const matches = s < 0 ? block.length : block.counts[s]!;
      if (skip >= matches) {
        skip -= matches;
        continue;
      }
      for (let j = 0; j < block.length && items.length < page.limit; j++) {
        const i = desc ? block.length - 1 - j : j;
        if (s >= 0 && block.statusCodeAt(i) !== s) continue;
        if (skip > 0) skip--;
        else items.push(block.at(i));
      }
    }
    return { total, items };
  }

  /** The first pending recipients, at most `max`, from one block (a batch's variables then read one column). */
  pending(max: number): PendingRecipients {
    const pending = statusCodeOf('pending')!;
    for (; this.#firstPending < this.#blocks.length; this.#firstPending++) {
      const block = this.#blocks[this.#firstPending]!;
      if (block.counts[pending]! > 0) return block.pending(max, this.#firstPending * this.blockSize);
    }
    return NO_PENDING;
  }

  /** Applies `patch` to the recipient with id `id`; false when there is none. */
  update(id: string, patch: RecipientUpdate): boolean {
    const position = this.#positionOf(id);
    if (position < 0) return false;
    const b = Math.floor(position / this.blockSize);
    this.#blocks[b]!.update(position % this.blockSize, patch);
    if (patch.status === 'pending') this.#firstPending = Math.min(this.#firstPending, b);
    this.#next = position + 1;
    return true;
  }

  /** Settles the recipients at `positions` as `outcomes` says of the k-th (see CampaignStore.settleRecipients). */
  settle(positions: readonly number[], outcomes: RecipientOutcomes): void {
    for (let from = 0; from < positions.length;) {
      const b = Math.floor(positions[from]! / this.blockSize);
      let to = from + 1;
      while (to < positions.length && Math.floor(positions[to]! / this.blockSize) === b) to++;
      this.#blocks[b]!.settle(positions, from, to, b * this.blockSize, outcomes);
      from = to;
    }
  }

  /**
   * Seals blocks, then deflates their variables, until `spent` says stop; whether every block
   * is done. Every block is sealed before any is deflated: a send that comes right after an
   * upload then finds them sealed as soon as it would have before deflating was added.
   */
  seal(spent: () => boolean): boolean {
    for (; this.#firstUnsealed < this.#blocks.length; this.#firstUnsealed++)
      if (!this.#blocks[this.#firstUnsealed]!.seal(spent)) return false;
    for (; this.#firstUndeflated < this.#blocks.length; this.#firstUndeflated++)
      if (!this.#blocks[this.#firstUndeflated]!.deflateVariables(spent)) return false;
    return true;
  }

  /** The recipients as of now, built one by one as they are iterated (later changes do not show). */
  frozen(): Iterable<Recipient> {
    const blocks: FrozenBlock[] = this.#blocks.map((b) => b.freeze());
    return {
      *[Symbol.iterator]() {
        for (const block of blocks) yield* recordsOf(block);
      },
    };
  }

  #userIdAt(position: number): string {
    return this.#blocks[Math.floor(position / this.blockSize)]!.userIdAt(position % this.blockSize);
  }

  #positionOf(id: string): number {
    const guess = this.#next;
    if (guess < this.#length && this.#idAt(guess) === id) return guess;
    for (let p = 0; p < this.#length; p++) if (this.#idAt(p) === id) return p;
    return -1;
  }

  #idAt(position: number): string {
    return this.#blocks[Math.floor(position / this.blockSize)]!.idAt(position % this.blockSize);
  }
}
