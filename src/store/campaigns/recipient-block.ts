/**
 * A block of one campaign's recipients (recipient-list.ts): first the records as they were
 * added (an upload's one step that cannot yield only slices its list), then, on a later
 * turn, sealed into columns. What never changes is kept in string columns once sealed
 * (string-column.ts: ids and user ids packed, one value for the whole block where all share
 * it). What a send changes (status, failure, delivery id, time) is kept as small codes into
 * the list's own strings (recipient-changes.ts), sealed or not, from the first change on: a
 * send into a block not yet sealed writes codes, not a new record per recipient. A sealed
 * block of 2,048 recipients is a few dozen heap objects instead of ~10,000, at a tenth of the
 * bytes (docs/performance.md#memory).
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
} from '../common/variables-column.js';

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

/**
 * A block's rows as a snapshot holds them: the records as added, alone or with the changes
 * of that moment, or columns with those changes.
 */
export type FrozenBlock =
  | readonly Recipient[]
  | { rows: readonly Recipient[]; changes: Changes; table: StringTable }
  | { fixed: Fixed; changes: Changes; table: StringTable };

/** What no send changes of a recipient: a record as added has it all, sealed columns give it by row. */
type FixedFields = Pick<Recipient, (typeof FIXED)[number] | 'variables'>;

/**
 * A record from what never changes and what a send changed, written out field by field so
 * that every record has one shape.
 */
function recordOf(
  { id, campaignId, appId, userId, variables, createdAt }: FixedFields,
  { status, failureReason, deliveryId, updatedAt }: ReturnType<Changes['get']>,
): Recipient {
  return { id, campaignId, appId, userId, variables, status, failureReason, deliveryId, createdAt, updatedAt };
}

/** Row `i` of sealed columns, as of `changes`. */
function recordAt(fixed: Fixed, changes: Changes, table: StringTable, i: number): Recipient {
  const fields: FixedFields = {
    id: fixed.id.at(i),
    campaignId: fixed.campaignId.at(i),
    appId: fixed.appId.at(i),
    userId: fixed.userId.at(i),
    variables: fixed.variables.at(i),
    createdAt: fixed.createdAt.at(i),
  };
  return recordOf(fields, changes.get(i, table));
}

/** The changing fields of `rows` as added, as codes. */
function changesOf(rows: readonly Recipient[], table: StringTable): Changes {
  const changes = Changes.empty(rows.length);
  rows.forEach((r, i) => changes.set(i, r, table));
  return changes;
}

/** The records of a frozen block, one by one as iterated. */
export function* recordsOf(block: FrozenBlock): Generator<Recipient> {
  if (Array.isArray(block)) return yield* block as readonly Recipient[];
  if ('rows' in block) {
    const { rows, changes, table } = block;
    for (let i = 0; i < rows.length; i++) yield recordOf(rows[i]!, changes.get(i, table));
    return;
  }
  const { fixed, changes, table } = block as Extract<FrozenBlock, { fixed: Fixed }>;
  for (let i = 0; i < fixed.id.length; i++) yield recordAt(fixed, changes, table, i);
}

export class RecipientBlock {
  /** See counts: null until first asked. */
  #counts: Uint32Array | null = null;
  /** The records as added, until sealed (null after). */
  #rows: Recipient[] | null;
  #fixed: Fixed | null = null;
  /**
   * What sends changed, one code per row: made from the records when a block not yet sealed
   * is first changed, and from then on the truth of those fields (the records keep what they
   * were added with). Null only while the records say it all.
   */
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
    return this.#changes === null ? statusCode(this.#rows![i]!.status) : this.#changes.status[i]!;
  }

  idAt(i: number): string {
    return this.#rows === null ? this.#fixed!.id.at(i) : this.#rows[i]!.id;
  }

  userIdAt(i: number): string {
    return this.#rows === null ? this.#fixed!.userId.at(i) : this.#rows[i]!.userId;
  }

  at(i: number): Recipient {
    const rows = this.#rows;
    if (rows === null) return recordAt(this.#fixed!, this.#changes!, this.table, i);
    return this.#changes === null ? rows[i]! : recordOf(rows[i]!, this.#changes.get(i, this.table));
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

  /** Appends records (a sealed or changed block is opened again first, its records rebuilt). */
  push(rows: readonly Recipient[]): void {
    if (this.#rows === null || this.#changes !== null) {
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
    const changes = this.#changing();
    if (patch.status !== undefined) {
      this.#recount(i, RECIPIENT_STATUSES[changes.status[i]!]!, patch.status);
      changes.status[i] = statusCode(patch.status);
    }
    changes.patch(i, patch, this.table);
  }

  /**
   * Settles the k-th recipient of `outcomes` for k in [from, to), at row positions[k] - offset.
   * The codes the batch shares are found once (Changes.settle), sealed or not.
   */
  settle(positions: readonly number[], from: number, to: number, offset: number, outcomes: RecipientOutcomes): void {
    this.#changing().settle(positions, from, to, offset, outcomes, this.table, this.counts);
  }

  /**
   * The changes to write into: made from the records on a block's first change, copied while
   * a snapshot being written holds them (it keeps the state of its moment).
   */
  #changing(): Changes {
    let changes = this.#changes;
    if (changes === null) changes = this.#changes = changesOf(this.#rows!, this.table);
    else if (changes.shared) changes = this.#changes = changes.copy();
    return changes;
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
    // A block a send has changed keeps its changes: the records do not hold them.
    this.#changes ??= changesOf(rows, this.table);
    this.#fixed = fixed;
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
    const changes = this.#changes;
    if (changes === null) return this.#rows!.slice();
    changes.shared = true;
    const { table } = this;
    return this.#rows === null ? { fixed: this.#fixed!, changes, table } : { rows: this.#rows.slice(), changes, table };
  }
}
