/**
 * A block of one campaign's recipients (recipient-list.ts): first the records as they were
 * added (an upload's one step that cannot yield only slices its list), then, on a later
 * turn, sealed into columns. What never changes is kept in string columns
 * (string-column.ts: ids and user ids packed, one value for the whole block where all share
 * it); what a send changes (status, failure, delivery id, time) as small codes into the
 * list's own strings. A sealed block of 2,048 recipients is a few dozen heap objects
 * instead of ~10,000, at a tenth of the bytes (docs/performance.md#memory).
 */
import { RECIPIENT_STATUSES, type Recipient, type RecipientStatus } from '../../schemas/records.js';
import type { PendingRecipients, RecipientOutcomes, RecipientUpdate } from '../../domain/ports.js';
import { Changes, statusCode, StringTable } from './recipient-changes.js';
import { sealFields, type StringColumn } from '../common/string-column.js';
import {
  sealVariables,
  startVariablesSealing,
  type VariablesColumn,
  type VariablesSealing,
} from './variables-column.js';

/** Recipients per block: a campaign's recipient `p` is row p % RECIPIENT_BLOCK of block p / RECIPIENT_BLOCK. */
export const RECIPIENT_BLOCK = 2048;

/** The fields no send changes, one column each (the variables: variables-column.ts). */
const FIXED = ['id', 'campaignId', 'appId', 'userId', 'createdAt'] as const;
type Fixed = Record<(typeof FIXED)[number], StringColumn> & { variables: VariablesColumn };

/** A seal under way over several slices: the variables so far, the columns so far. */
interface Sealing {
  variables: VariablesSealing;
  columns: Partial<Fixed>;
}

/** A block's rows as a snapshot holds them: records, or columns with the changes of that moment. */
export type FrozenBlock = readonly Recipient[] | { fixed: Fixed; changes: Changes; table: StringTable };

function recordAt(fixed: Fixed, changes: Changes, table: StringTable, i: number): Recipient {
  const { status, failureReason, deliveryId, updatedAt } = changes.get(i, table);
  return {
    id: fixed.id.at(i),
    campaignId: fixed.campaignId.at(i),
    appId: fixed.appId.at(i),
    userId: fixed.userId.at(i),
    variables: fixed.variables.at(i),
    status,
    failureReason,
    deliveryId,
    createdAt: fixed.createdAt.at(i),
    updatedAt,
  };
}

/** The records of a frozen block, one by one as iterated. */
export function* recordsOf(block: FrozenBlock): Generator<Recipient> {
  if (Array.isArray(block)) yield* block as readonly Recipient[];
  else {
    const { fixed, changes, table } = block as Exclude<FrozenBlock, readonly Recipient[]>;
    for (let i = 0; i < fixed.id.length; i++) yield recordAt(fixed, changes, table, i);
  }
}

export class RecipientBlock {
  /** See counts: null until first asked. */
  #counts: Uint32Array | null = null;
  /** The records, until sealed (null after). */
  #rows: Recipient[] | null;
  #fixed: Fixed | null = null;
  #changes: Changes | null = null;
  /** A seal under way (see seal()). */
  #sealing: Sealing | null = null;
  /** No row before this one is pending (see pending()). */
  #pendingFrom = 0;

  constructor(
    rows: Recipient[],
    private readonly table: StringTable,
  ) {
    this.#rows = rows;
  }

  /**
   * How many recipients of each status (RECIPIENT_STATUSES order): pages by status skip whole
   * blocks. Counted when sealed or first used, not as an upload adds them (its one step that
   * cannot yield).
   */
  get counts(): Uint32Array {
    return (this.#counts ??= this.#countStatuses());
  }

  #countStatuses(): Uint32Array {
    const counts = new Uint32Array(RECIPIENT_STATUSES.length);
    for (let i = 0; i < this.length; i++) counts[this.statusCodeAt(i)]!++;
    return counts;
  }

  get length(): number {
    return this.#rows?.length ?? this.#fixed!.id.length;
  }

  get sealed(): boolean {
    return this.#rows === null;
  }

  statusCodeAt(i: number): number {
    return this.#rows === null ? this.#changes!.status[i]! : statusCode(this.#rows[i]!.status);
  }

  idAt(i: number): string {
    return this.#rows === null ? this.#fixed!.id.at(i) : this.#rows[i]!.id;
  }

  userIdAt(i: number): string {
    return this.#rows === null ? this.#fixed!.userId.at(i) : this.#rows[i]!.userId;
  }

  at(i: number): Recipient {
    return this.#rows === null ? recordAt(this.#fixed!, this.#changes!, this.table, i) : this.#rows[i]!;
  }

  /**
   * Up to `max` pending recipients: their positions (the block's first at `offset`) and user
   * ids, and their variables as a reader (the records themselves are not built).
   */
  pending(max: number, offset: number): PendingRecipients {
    const rows: number[] = [];
    const pending = statusCode('pending');
    // Rows before #pendingFrom are not pending: a send marks them in order, so each batch starts there.
    while (this.#pendingFrom < this.length && this.statusCodeAt(this.#pendingFrom) !== pending) this.#pendingFrom++;
    for (let i = this.#pendingFrom; i < this.length && rows.length < max; i++)
      if (this.statusCodeAt(i) === pending) rows.push(i);
    const positions = rows.map((i) => offset + i);
    const userIds = rows.map((i) => this.userIdAt(i));
    // Read from the block when a delivery is read, in the form it has then: a send keeps no
    // copy. Not the records' own objects: until the block is sealed their text is slices of
    // the upload's chunks, and a delivery holding them would keep the whole file alive.
    const at = Uint16Array.from(rows);
    return { positions, userIds, variables: { eachAt: (k) => this.#variablesAt(at[k]!) } };
  }

  /** Row `i`'s variables (they never change: a sealed block and its records agree). */
  #variablesAt(i: number): Record<string, unknown> {
    return this.#rows === null ? this.#fixed!.variables.at(i) : this.#rows[i]!.variables;
  }

  /** Appends records (the block was sealed: it is opened again first, its records rebuilt). */
  push(rows: readonly Recipient[]): void {
    if (this.#rows === null) {
      this.#rows = Array.from({ length: this.length }, (_, i) => this.at(i));
      this.#fixed = this.#changes = null;
    }
    for (const r of rows) {
      this.#rows.push(r);
      if (this.#counts !== null) this.#counts[statusCode(r.status)]!++;
    }
    // Columns sealed so far miss the new rows.
    this.#sealing = null;
  }

  update(i: number, patch: RecipientUpdate): void {
    const rows = this.#rows;
    if (rows !== null) {
      // A new record, not the old one changed: a snapshot being written holds the old one.
      const after = { ...rows[i]!, ...patch };
      this.#recount(i, rows[i]!.status, after.status);
      rows[i] = after;
      return;
    }
    let changes = this.#changes!;
    if (changes.shared) this.#changes = changes = changes.copy();
    if (patch.status !== undefined) {
      this.#recount(i, RECIPIENT_STATUSES[changes.status[i]!]!, patch.status);
      changes.status[i] = statusCode(patch.status);
    }
    changes.patch(i, patch, this.table);
  }

  /**
   * Settles the k-th recipient of `outcomes` for k in [from, to), at row positions[k] - offset.
   * Sealed, the codes the batch shares are found once (Changes.settle).
   */
  settle(positions: readonly number[], from: number, to: number, offset: number, outcomes: RecipientOutcomes): void {
    const rows = this.#rows;
    if (rows !== null) {
      const counts = this.counts;
      for (let k = from; k < to; k++) {
        const i = positions[k]! - offset;
        const r = rows[i]!;
        const reason = outcomes.reason(k);
        const status = reason === null ? 'sent' : 'failed';
        counts[statusCode(r.status)]!--;
        counts[statusCode(status)]!++;
        // A new record, not the old one changed (a snapshot being written holds the old one),
        // written out field by field: every record then has one shape.
        rows[i] = {
          id: r.id,
          campaignId: r.campaignId,
          appId: r.appId,
          userId: r.userId,
          variables: r.variables,
          status,
          failureReason: reason,
          deliveryId: outcomes.deliveryId(k),
          createdAt: r.createdAt,
          updatedAt: outcomes.at,
        };
      }
      return;
    }
    let changes = this.#changes!;
    if (changes.shared) this.#changes = changes = changes.copy();
    changes.settle(positions, from, to, offset, outcomes, this.table, this.counts);
  }

  /** Moves a recipient from one status's count to another's (at row `i`). */
  #recount(i: number, before: RecipientStatus, after: RecipientStatus): void {
    const counts = this.counts;
    counts[statusCode(before)]!--;
    counts[statusCode(after)]!++;
    if (after === 'pending') this.#pendingFrom = Math.min(this.#pendingFrom, i);
  }

  /**
   * Seals the block into columns, over several calls when `spent` says stop (whether it is
   * done): the variables (variables-column.ts), then one column at a time.
   */
  seal(spent: () => boolean): boolean {
    const rows = this.#rows;
    if (rows === null) return true;
    const sealing = (this.#sealing ??= { variables: startVariablesSealing(), columns: {} });
    const variables = (sealing.columns.variables ??= sealVariables(rows, sealing.variables, spent) ?? undefined);
    if (variables === undefined) return false;
    const strings = sealFields(FIXED, sealing.columns, (f) => rows.map((r) => r[f]), spent);
    if (strings === null) return false;
    const fixed = { ...strings, variables };
    const changes = Changes.empty(rows.length);
    rows.forEach((r, i) => changes.set(i, r, this.table));
    this.#fixed = fixed;
    this.#changes = changes;
    this.#rows = null;
    this.#sealing = null;
    // Counted in a sealing slice: a send's first count then does not pass every block at once.
    this.#counts ??= this.#countStatuses();
    return true;
  }

  /**
   * Deflates the sealed block's long variables columns, one at a time until `spent` says
   * stop (variables-column.ts); whether all are done. Sealed first when it is not.
   */
  deflateVariables(spent: () => boolean): boolean {
    return this.seal(spent) && this.#fixed!.variables.deflate(spent);
  }

  /** The block as of now, for a snapshot read over later turns. */
  freeze(): FrozenBlock {
    if (this.#rows !== null) return this.#rows.slice();
    this.#changes!.shared = true;
    return { fixed: this.#fixed!, changes: this.#changes!, table: this.table };
  }
}
