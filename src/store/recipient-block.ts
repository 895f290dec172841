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
import { joinCounter, sealStrings, splitCounter, type StringColumn } from './string-column.js';

/** Recipients per block: a campaign's recipient `p` is row p % RECIPIENT_BLOCK of block p / RECIPIENT_BLOCK. */
export const RECIPIENT_BLOCK = 2048;

const STATUS_CODE = new Map<string, number>(RECIPIENT_STATUSES.map((s, i) => [s, i]));
const statusCode = (status: RecipientStatus): number => STATUS_CODE.get(status)!;

/** Strings the changing fields name by code: appended to, never renumbered (a snapshot reads old codes). */
export class StringTable {
  readonly #values: string[] = [];
  readonly #codes = new Map<string, number>();
  code(value: string): number {
    let code = this.#codes.get(value);
    if (code === undefined) {
      code = this.#values.length;
      this.#values.push(value);
      this.#codes.set(value, code);
    }
    return code;
  }
  at(code: number): string {
    return this.#values[code]!;
  }
}

type Codes = Uint8Array | Uint16Array | Uint32Array;

/** `codes` with `code` at `index`, widened to 16 or 32 bits first when it does not fit. */
function setCode(codes: Codes, index: number, code: number): Codes {
  const limit = codes instanceof Uint8Array ? 0xff : codes instanceof Uint16Array ? 0xffff : 0xffffffff;
  if (code > limit) codes = code > 0xffff ? Uint32Array.from(codes) : Uint16Array.from(codes);
  codes[index] = code;
  return codes;
}

/** Variables as JSON text; the usual `{}` (recipients added by id) as the empty string. */
function variablesText(variables: Record<string, unknown>): string {
  for (const _ in variables) return JSON.stringify(variables);
  return '';
}
const variablesOf = (text: string): Record<string, unknown> =>
  text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);

/** Marks a delivery id kept whole as a code (not an emulator id: splitCounter). */
const NO_COUNTER = 0xffffffff;

/**
 * What a send changes, one code per recipient. Replaced whole (copied) before a change
 * while a snapshot holds it (`shared`), so the data file written over many turns shows the
 * state of the moment it was taken.
 */
class Changes {
  shared = false;
  constructor(
    public status: Uint8Array,
    /** 0: null; else 1 + the reason's code. */
    public failure: Codes,
    /** 0: null; else 1 + the code of the id's prefix (or of the whole id, its counter NO_COUNTER). */
    public delivery: Codes,
    public deliveryCounter: Uint32Array,
    public updatedAt: Codes,
  ) {}

  static empty(length: number): Changes {
    return new Changes(
      new Uint8Array(length),
      new Uint8Array(length),
      new Uint8Array(length),
      new Uint32Array(length),
      new Uint8Array(length),
    );
  }

  copy(): Changes {
    return new Changes(
      this.status.slice(),
      this.failure.slice(),
      this.delivery.slice(),
      this.deliveryCounter.slice(),
      this.updatedAt.slice(),
    );
  }

  set(i: number, r: Pick<Recipient, 'status' | 'failureReason' | 'deliveryId' | 'updatedAt'>, table: StringTable) {
    this.status[i] = statusCode(r.status);
    this.patch(i, r, table);
  }

  /** Writes the fields `patch` names but the status (the block recounts it). */
  patch(i: number, patch: RecipientUpdate, table: StringTable): void {
    if (patch.failureReason !== undefined)
      this.failure = setCode(this.failure, i, patch.failureReason === null ? 0 : 1 + table.code(patch.failureReason));
    if (patch.updatedAt !== undefined) this.updatedAt = setCode(this.updatedAt, i, table.code(patch.updatedAt));
    if (patch.deliveryId === undefined) return;
    const id = patch.deliveryId;
    const split = id === null ? null : splitCounter(id);
    this.delivery = setCode(this.delivery, i, id === null ? 0 : 1 + table.code(split?.prefix ?? id));
    this.deliveryCounter[i] = split?.counter ?? NO_COUNTER;
  }

  get(i: number, table: StringTable): Pick<Recipient, 'status' | 'failureReason' | 'deliveryId' | 'updatedAt'> {
    const failure = this.failure[i]!;
    return {
      status: RECIPIENT_STATUSES[this.status[i]!]!,
      failureReason: failure === 0 ? null : table.at(failure - 1),
      deliveryId: this.deliveryId(i, table),
      updatedAt: table.at(this.updatedAt[i]!),
    };
  }

  deliveryId(i: number, table: StringTable): string | null {
    const prefix = this.delivery[i]!;
    if (prefix === 0) return null;
    const counter = this.deliveryCounter[i]!;
    const head = table.at(prefix - 1);
    return counter === NO_COUNTER ? head : joinCounter(head, counter);
  }
}

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
