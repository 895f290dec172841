/**
 * A block of one campaign's recipients (recipient-list.ts): first the records as they were
 * added (an upload's one step that cannot yield only slices its list), then, on a later
 * turn, sealed into columns. What never changes is kept in string columns
 * (string-column.ts: ids and user ids packed, one value for the whole block where all share
 * it); what a send changes (status, failure, delivery id, time) as small codes into the
 * list's own strings. A sealed block of 2,048 recipients is a few dozen heap objects
 * instead of ~10,000, at a tenth of the bytes (docs/performance.md#memory).
 */
import { RECIPIENT_STATUSES, type Recipient, type RecipientStatus } from '../schemas/records.js';
import type { PendingRecipients, RecipientUpdate } from '../domain/ports.js';
import { Changes, statusCode, StringTable } from './recipient-changes.js';
import { sealStrings, type StringColumn } from './string-column.js';

/** Recipients per block: a campaign's recipient `p` is row p % RECIPIENT_BLOCK of block p / RECIPIENT_BLOCK. */
export const RECIPIENT_BLOCK = 2048;

/** Variables as JSON text; the usual `{}` (recipients added by id) as the empty string. */
function variablesText(variables: Record<string, unknown>): string {
  for (const _ in variables) return JSON.stringify(variables);
  return '';
}
const variablesOf = (text: string): Record<string, unknown> =>
  text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);

/** The fields no send changes, one column each. */
interface Fixed {
  ids: StringColumn;
  campaignIds: StringColumn;
  appIds: StringColumn;
  userIds: StringColumn;
  variables: StringColumn;
  createdAt: StringColumn;
}

const fixedOf = (rows: readonly Recipient[]): Fixed => ({
  ids: sealStrings(rows.map((r) => r.id)),
  campaignIds: sealStrings(rows.map((r) => r.campaignId)),
  appIds: sealStrings(rows.map((r) => r.appId)),
  userIds: sealStrings(rows.map((r) => r.userId)),
  variables: sealStrings(rows.map((r) => variablesText(r.variables))),
  createdAt: sealStrings(rows.map((r) => r.createdAt)),
});

/** A block's rows as a snapshot holds them: records, or columns with the changes of that moment. */
export type FrozenBlock = readonly Recipient[] | { fixed: Fixed; changes: Changes; table: StringTable };

function recordAt(fixed: Fixed, changes: Changes, table: StringTable, i: number): Recipient {
  const { status, failureReason, deliveryId, updatedAt } = changes.get(i, table);
  return {
    id: fixed.ids.at(i),
    campaignId: fixed.campaignIds.at(i),
    appId: fixed.appIds.at(i),
    userId: fixed.userIds.at(i),
    variables: variablesOf(fixed.variables.at(i)),
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
    for (let i = 0; i < fixed.ids.length; i++) yield recordAt(fixed, changes, table, i);
  }
}

export class RecipientBlock {
  /** How many recipients of each status (RECIPIENT_STATUSES order): pages by status skip whole blocks. */
  readonly counts = new Uint32Array(RECIPIENT_STATUSES.length);
  /** The records, until sealed (null after). */
  #rows: Recipient[] | null;
  #fixed: Fixed | null = null;
  #changes: Changes | null = null;
  /** No row before this one is pending (see pending()). */
  #pendingFrom = 0;

  constructor(
    rows: Recipient[],
    private readonly table: StringTable,
  ) {
    this.#rows = rows;
    for (const r of rows) this.counts[statusCode(r.status)]!++;
  }

  get length(): number {
    return this.#rows?.length ?? this.#fixed!.ids.length;
  }

  get sealed(): boolean {
    return this.#rows === null;
  }

  statusCodeAt(i: number): number {
    return this.#rows === null ? this.#changes!.status[i]! : statusCode(this.#rows[i]!.status);
  }

  idAt(i: number): string {
    return this.#rows === null ? this.#fixed!.ids.at(i) : this.#rows[i]!.id;
  }

  userIdAt(i: number): string {
    return this.#rows === null ? this.#fixed!.userIds.at(i) : this.#rows[i]!.userId;
  }

  at(i: number): Recipient {
    return this.#rows === null ? recordAt(this.#fixed!, this.#changes!, this.table, i) : this.#rows[i]!;
  }

  /**
   * Up to `max` pending recipients: their ids and user ids, and their variables as a reader
   * (the records themselves are not built).
   */
  pending(max: number): PendingRecipients {
    const rows: number[] = [];
    const pending = statusCode('pending');
    // Rows before #pendingFrom are not pending: a send marks them in order, so each batch starts there.
    while (this.#pendingFrom < this.length && this.statusCodeAt(this.#pendingFrom) !== pending) this.#pendingFrom++;
    for (let i = this.#pendingFrom; i < this.length && rows.length < max; i++)
      if (this.statusCodeAt(i) === pending) rows.push(i);
    const ids = rows.map((i) => this.idAt(i));
    const userIds = rows.map((i) => this.userIdAt(i));
    if (this.#rows !== null) {
      const records = this.#rows;
      return { ids, userIds, variables: { each: rows.map((i) => records[i]!.variables) } };
    }
    // Read from the column when a delivery is read: a send keeps no decoded copy.
    const column = this.#fixed!.variables;
    const at = Uint16Array.from(rows);
    return { ids, userIds, variables: { eachAt: (k) => variablesOf(column.at(at[k]!)) } };
  }

  /** Appends records (the block was sealed: it is opened again first, its records rebuilt). */
  push(rows: readonly Recipient[]): void {
    if (this.#rows === null) {
      this.#rows = Array.from({ length: this.length }, (_, i) => this.at(i));
      this.#fixed = this.#changes = null;
    }
    for (const r of rows) {
      this.#rows.push(r);
      this.counts[statusCode(r.status)]!++;
    }
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

  /** Moves a recipient from one status's count to another's (at row `i`). */
  #recount(i: number, before: RecipientStatus, after: RecipientStatus): void {
    this.counts[statusCode(before)]!--;
    this.counts[statusCode(after)]!++;
    if (after === 'pending') this.#pendingFrom = Math.min(this.#pendingFrom, i);
  }

  seal(): void {
    const rows = this.#rows;
    if (rows === null) return;
    const changes = Changes.empty(rows.length);
    rows.forEach((r, i) => changes.set(i, r, this.table));
    this.#fixed = fixedOf(rows);
    this.#changes = changes;
    this.#rows = null;
  }

  /** The block as of now, for a snapshot read over later turns. */
  freeze(): FrozenBlock {
    if (this.#rows !== null) return this.#rows.slice();
    this.#changes!.shared = true;
    return { fixed: this.#fixed!, changes: this.#changes!, table: this.table };
  }
}
