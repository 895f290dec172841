/**
 * Realtime sends sealed into columns: a block of runs of one (SingleDelivery) as the log keeps
 * them once it has a few thousand, each field a column in the form that takes least heap
 * (string-column.ts: ids as a prefix and a counter, times as numbers, user ids packed; the
 * variables as variables-column.ts keeps a campaign's), and each send a SealedSingle: an
 * entry of two fields that reads its fields from the block. A realtime send kept as a
 * SingleDelivery holds ~230 bytes of heap (its entry, its time, user id and variables): at
 * the default cap of a million deliveries, with every other store at its cap too, more than
 * the heap a 512 MiB container gives Node. Sealed, ~100 bytes (docs/performance.md, Memory).
 */
import type { DeliveryFailureMark } from '../../domain/ports.js';
import { sealStrings, type StringColumn } from '../common/string-column.js';
import { sealVariables, startVariablesSealing, type VariablesColumn } from '../common/variables-column.js';
import { OneDelivery, type SingleDelivery, type SingleProfile } from './delivery-run.js';

/** Sends a block holds: a profile code fits 16 bits, and sealing one takes a few milliseconds. */
export const SINGLE_BLOCK_SIZE = 2048;

/** Stands for a null notification id in its column (a campaign's send of one has none; no id is empty). */
const NO_NOTIFICATION = '';

/**
 * The block's profiles, each once, and a code per send. Alike by value, not only the same
 * object: a send keeps the newest profile of its renderer, so sends of several apps, tags or
 * titles taking turns each made one of their own.
 */
function distinctProfiles(singles: readonly SingleDelivery[]): { values: SingleProfile[]; codes: Uint16Array } {
  const values: SingleProfile[] = [];
  const codes = new Uint16Array(singles.length);
  const byKey = new Map<string, number>();
  // The objects a profile holds by reference (renderer, channels, push data), numbered as met.
  const objects = new Map<unknown, number>();
  const objectNumber = (value: unknown): number => {
    let n = objects.get(value);
    if (n === undefined) objects.set(value, (n = objects.size));
    return n;
  };
  let last: SingleProfile | undefined;
  let lastCode = 0;
  singles.forEach(({ profile: p }, row) => {
    if (p !== last) {
      // As JSON: a null title and an empty one, or any text in them, make different keys.
      const key = JSON.stringify([
        objectNumber(p.render),
        objectNumber(p.channels),
        objectNumber(p.pushData),
        p.appId,
        p.campaignId,
        p.templateId,
        p.templateKey,
        p.mode,
        p.title,
        p.tag,
      ]);
      let code = byKey.get(key);
      if (code === undefined) byKey.set(key, (code = values.push(p) - 1));
      last = p;
      lastCode = code;
    }
    codes[row] = lastCode;
  });
  return { values, codes };
}

export class SingleBlock {
  readonly #profiles: SingleProfile[];
  readonly #profileCodes: Uint16Array;
  readonly #notificationIds: StringColumn;
  readonly #createdAt: StringColumn;
  readonly #ids: StringColumn;
  readonly #userIds: StringColumn;
  readonly #variables: VariablesColumn;
  /** Failed sends by row; every other one was sent. */
  readonly #failures: ReadonlyMap<number, DeliveryFailureMark> | null;

  constructor(singles: readonly SingleDelivery[]) {
    const profiles = distinctProfiles(singles);
    this.#profiles = profiles.values;
    this.#profileCodes = profiles.codes;
    const failures = new Map<number, DeliveryFailureMark>();
    singles.forEach((single, row) => {
      if (single.failure !== undefined) failures.set(row, single.failure);
    });
    this.#failures = failures.size > 0 ? failures : null;
    this.#notificationIds = sealStrings(singles.map((s) => s.notificationId ?? NO_NOTIFICATION));
    this.#createdAt = sealStrings(singles.map((s) => s.createdAt));
    this.#ids = sealStrings(singles.map((s) => s.id));
    this.#userIds = sealStrings(singles.map((s) => s.userId));
    // All at once: a block is sealed in one task, as a campaign's block is over several.
    this.#variables = sealVariables(singles, startVariablesSealing(), () => false)!;
  }

  profileAt = (row: number): SingleProfile => this.#profiles[this.#profileCodes[row]!]!;
  notificationIdAt(row: number): string | null {
    const id = this.#notificationIds.at(row);
    return id === NO_NOTIFICATION ? null : id;
  }
  createdAtAt = (row: number): string => this.#createdAt.at(row);
  idAt = (row: number): string => this.#ids.at(row);
  userIdAt = (row: number): string => this.#userIds.at(row);
  variablesAt = (row: number): Record<string, unknown> => this.#variables.at(row);
  failureAt = (row: number): DeliveryFailureMark | undefined => this.#failures?.get(row);
}

/** A realtime send in a sealed block: its entry in the log, each field read from the block. */
export class SealedSingle extends OneDelivery {
  constructor(
    private readonly block: SingleBlock,
    private readonly row: number,
  ) {
    super();
  }

  get profile(): SingleProfile {
    return this.block.profileAt(this.row);
  }
  get notificationId(): string | null {
    return this.block.notificationIdAt(this.row);
  }
  get createdAt(): string {
    return this.block.createdAtAt(this.row);
  }
  get id(): string {
    return this.block.idAt(this.row);
  }
  get userId(): string {
    return this.block.userIdAt(this.row);
  }
  get variables(): Record<string, unknown> {
    return this.block.variablesAt(this.row);
  }
  get failure(): DeliveryFailureMark | undefined {
    return this.block.failureAt(this.row);
  }
}

/** Seals `singles` into one block: each one's sealed entry, in their order. */
export function sealSingles(singles: readonly SingleDelivery[]): SealedSingle[] {
  const block = new SingleBlock(singles);
  return singles.map((_, row) => new SealedSingle(block, row));
}
