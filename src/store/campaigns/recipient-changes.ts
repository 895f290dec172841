/**
 * What a campaign send changes on a block of recipients (recipient-block.ts), sealed or not:
 * status, failure, delivery id and time, one small code per recipient, the strings they name
 * kept once per campaign (StringTable).
 */
import { RECIPIENT_STATUSES, type Recipient, type RecipientStatus } from '../../schemas/records.js';
import type { RecipientOutcomes, RecipientUpdate } from '../../domain/ports.js';
import { COUNTER_DIGITS, counterAt, joinCounter, splitCounter } from '../common/string-column.js';

const STATUS_CODE = new Map<string, number>(RECIPIENT_STATUSES.map((s, i) => [s, i]));
/** A status's index in RECIPIENT_STATUSES (its code), or undefined for a status that is none. */
export const statusCodeOf = (status: string): number | undefined => STATUS_CODE.get(status);
export const statusCode = (status: RecipientStatus): number => STATUS_CODE.get(status)!;

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

/** `codes`, or a copy widened to 16 or 32 bits when `code` does not fit them. */
function fitting(codes: Codes, code: number): Codes {
  const limit = codes instanceof Uint8Array ? 0xff : codes instanceof Uint16Array ? 0xffff : 0xffffffff;
  if (code <= limit) return codes;
  return code > 0xffff ? Uint32Array.from(codes) : Uint16Array.from(codes);
}

/** `codes` with `code` at `index`, widened first when it does not fit. */
function setCode(codes: Codes, index: number, code: number): Codes {
  codes = fitting(codes, code);
  codes[index] = code;
  return codes;
}

const SENT = statusCode('sent');
const FAILED = statusCode('failed');

/** Marks a delivery id kept whole as a code (not an emulator id: splitCounter). */
const NO_COUNTER = 0xffffffff;

/**
 * What a send changes, one code per recipient. Replaced whole (copied) before a change
 * while a snapshot holds it (`shared`), so the data file written over many turns shows the
 * state of the moment it was taken.
 */
export class Changes {
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

  /**
   * Marks rows positions[k] - offset, k in [from, to), sent or failed as `outcomes` says,
   * moving each between the block's `counts`. The time is looked up once, a failure reason
   * once while it repeats, and a delivery id's prefix once while the batch's ids share it
   * (a batch's deliveries are one stored run: their ids differ in the counter only); the
   * codes are widened when a new one is looked up, not per row.
   */
  settle(
    positions: readonly number[],
    from: number,
    to: number,
    offset: number,
    outcomes: RecipientOutcomes,
    table: StringTable,
    counts: Uint32Array,
  ): void {
    const at = table.code(outcomes.at);
    this.updatedAt = fitting(this.updatedAt, at);
    let lastReason: string | null = null;
    let reasonCode = 0;
    let prefix = '';
    let prefixCode = 0;
    for (let k = from; k < to; k++) {
      const i = positions[k]! - offset;
      const reason = outcomes.reason(k);
      const status = reason === null ? SENT : FAILED;
      counts[this.status[i]!]!--;
      counts[status]!++;
      this.status[i] = status;
      if (reason !== null && reason !== lastReason) {
        [lastReason, reasonCode] = [reason, 1 + table.code(reason)];
        this.failure = fitting(this.failure, reasonCode);
      }
      this.failure[i] = reason === null ? 0 : reasonCode;
      this.updatedAt[i] = at;
      const id = outcomes.deliveryId(k);
      const counter =
        id !== null && prefix !== '' && id.length === prefix.length + COUNTER_DIGITS && id.startsWith(prefix)
          ? counterAt(id, prefix.length)
          : -1;
      if (counter >= 0) {
        // The prefix's code was written by patch below, so the codes already fit it.
        this.delivery[i] = prefixCode;
        this.deliveryCounter[i] = counter;
        continue;
      }
      this.patch(i, { deliveryId: id }, table);
      // An emulator id was split by patch: its prefix's code is what the batch's next ids share.
      if (this.delivery[i] !== 0 && this.deliveryCounter[i] !== NO_COUNTER)
        [prefix, prefixCode] = [table.at(this.delivery[i]! - 1), this.delivery[i]!];
    }
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
