/**
 * The delivery log's entry indexes: every entry (a send's run, or one delivery) filed under
 * each value a delivery filter can name, alone and within its app (filter-keys.ts), plus one
 * list of every entry, each with its members and failures counted (counted-index.ts). A
 * filter on one field, or on one field and the app, is then one key: its total is read, not
 * counted, and its page found by binary search. Users are indexed apart, by member
 * (delivery-log.ts), since the members of one run differ in nothing else.
 *
 * An entry the log drops stays filed until a later turn unfiles it (unfileLeaving), in
 * slices: a batch send at the cap drops up to 10,000 realtime entries, each under ~15
 * keys, and unfiling them in the send's turn held the event loop 40-110 ms. Until then every
 * read skips them (liveEntries): they are the oldest of each key, so that is one search.
 */
import type { DeliveryFilter, SharedDeliveryFields } from '../../domain/ports.js';
import { CountedIndex, type KeyEntries } from '../common/counted-index.js';
import { filterKeys, type KeyField } from '../common/filter-keys.js';
import { Deque } from '../common/deque.js';
import { intersect, seek } from '../common/intersect.js';
import type { KeyValue } from '../common/keyed-log.js';
import { idBlock } from './delivery-entries.js';

/** A delivery through a channel named twice went through it once. */
function channelsOf(d: SharedDeliveryFields): KeyValue {
  const channels = d.channels;
  for (let i = 1; i < channels.length; i++) if (channels.indexOf(channels[i]!) < i) return [...new Set(channels)];
  return channels;
}

/** Filter fields answered without a key: app (in every key), user (delivery-members.ts), status (counts), times. */
type Unkeyed = 'appId' | 'userId' | 'status' | 'since' | 'until';
type KeyedName = Exclude<keyof DeliveryFilter, Unkeyed>;

/**
 * A keyed field, and how a value is filed: as it is, or by the block of ids it is in (idBlock).
 * A field filed by block is one every send has a value of its own for (a notification's id):
 * filed as it is, it was a key per realtime send, a map entry added with each and deleted at
 * the cap (the costliest step of filing one). Its key's entries are then tested for the value.
 * Not a scanned column, as the keyed logs keep their ids (scanned-keys.ts): over a million
 * entries a scan would cost each query by notification ~0.3 ms, a block ~0.03 ms.
 */
interface DeliveryKeyField extends KeyField<SharedDeliveryFields> {
  byBlock?: boolean;
}

/** The keys of a value filed by block: each value's block. */
const blocksOf = (value: KeyValue): KeyValue =>
  typeof value === 'string' ? idBlock(value) : value == null ? value : value.map(idBlock);

/**
 * How an entry's shared fields answer each keyed field of the filter, in the order keysFor is
 * given their values: a field added to the filter's schema fails to typecheck here until it
 * has a key (or is named in Unkeyed). `withApp` is a choice of speed: a field filed without
 * its app is read, with an app, from two keys (the app's and the field's) and answers alike.
 */
// Stryker disable BooleanLiteral: withApp is a choice of speed (above)
const KEYED: Record<KeyedName, DeliveryKeyField> = {
  notificationId: { valueOf: (d) => d.notificationId, withApp: false, byBlock: true },
  campaignId: { valueOf: (d) => d.campaignId, withApp: false },
  templateKey: { valueOf: (d) => d.templateKey, withApp: true },
  templateId: { valueOf: (d) => d.templateId, withApp: true },
  mode: { valueOf: (d) => d.mode, withApp: true },
  tag: { valueOf: (d) => d.tag, withApp: true },
  channel: { valueOf: channelsOf, withApp: true },
};
// Stryker restore BooleanLiteral
/**
 * The fields as filed and read: a field filed by block has its records' values and its
 * filters' values turned into blocks here, the one place, so the two always agree.
 */
const FIELDS = Object.entries(KEYED).map(([name, field]) => ({
  ...field,
  name: name as KeyedName,
  valueOf: field.byBlock === true ? (d: SharedDeliveryFields) => blocksOf(field.valueOf(d)) : field.valueOf,
  keyOf: field.byBlock === true ? idBlock : (value: string) => value,
}));
const keys = filterKeys<SharedDeliveryFields>((d) => d.appId, FIELDS);
const CHANNEL_FAMILY = 1 + FIELDS.findIndex((f) => f.name === 'channel');
/** The family every entry is filed in, under one key. */
const ALL_FAMILY = keys.families;
// Stryker disable next-line StringLiteral: any one text names the key every entry is filed under
const ALL_KEY = '';

/** Where a filter's candidates are: a key's entries, and whether they answer every shared field it names. */
export interface EntryPlan {
  entries: KeyEntries;
  /**
   * True when only time and status are left to test (a key's counts then answer without a
   * visit); false when the filter names a field filed by block.
   */
  exact: boolean;
}

/**
 * The entries of `keys` common to all, as one list with its own counts (from the shortest
 * key's): a filter on several fields is then answered as one on a single key is.
 */
function common(keys: KeyEntries[], headSeq: number): KeyEntries {
  // The shortest first is a choice of speed: intersect and the counts below read the first list, whichever it is.
  // Stryker disable next-line MethodExpression,ArrowFunction,ArithmeticOperator: a choice of speed (above)
  keys.sort((a, b) => a.count - b.count);
  const shortest = keys[0]!;
  const at = intersect(keys, headSeq);
  const entries = { count: at.length, at: (k: number) => shortest.at(at[k]!), plain: shortest.plain };
  // Sends of one, all sent: the counts are the positions themselves.
  if (shortest.plain) return { ...entries, membersBefore: (k) => k, failedBefore: () => 0 };
  const members = new Float64Array(at.length + 1);
  const failed = new Float64Array(at.length + 1);
  for (let k = 0; k < at.length; k++) {
    const i = at[k]!;
    members[k + 1] = members[k]! + shortest.membersBefore(i + 1) - shortest.membersBefore(i);
    failed[k + 1] = failed[k]! + shortest.failedBefore(i + 1) - shortest.failedBefore(i);
  }
  return { ...entries, membersBefore: (k) => members[k]!, failedBefore: (k) => failed[k]! };
}

/** `list` without its first `skip` entries, counted from its first live one. */
function withoutOldest(list: KeyEntries, skip: number): KeyEntries {
  if (skip === 0) return list;
  const members = list.membersBefore(skip);
  const failed = list.failedBefore(skip);
  return {
    count: list.count - skip,
    at: (i) => list.at(i + skip),
    membersBefore: (i) => list.membersBefore(i + skip) - members,
    failedBefore: (i) => list.failedBefore(i + skip) - failed,
    plain: list.plain,
  };
}

export class DeliveryIndexes {
  readonly #families = Array.from({ length: ALL_FAMILY + 1 }, () => new CountedIndex());
  /** Entries by the text their delivery ids start with (a send's range: one second of one emulator's ids). */
  readonly #byIdPrefix = new CountedIndex();
  /** The lengths of those prefixes (a few: 18 for ranges of ObjectIds, an id's own length for a record). */
  readonly #prefixLengths = new Set<number>();
  /**
   * Entries the log has dropped, oldest first, still filed. Their sequence numbers ascend but
   * may skip: an entry dropped before it was filed never leaves.
   */
  readonly #leaving = new Deque<{ shared: SharedDeliveryFields; idPrefix: string; seq: number }>();
  /** The newest sequence number among them. */
  #lastLeft = 0;
  readonly #keysOf = keys.keyer();
  /** The keys of the entry being filed or unfiled (#visit): one list for them all. */
  readonly #keys = new Array<KeyValue>(ALL_FAMILY);

  /** Files an entry (`members` deliveries as added, `failed` of them failed) under each of its keys. */
  file(shared: SharedDeliveryFields, idPrefix: string, seq: number, members: number, failed: number): void {
    this.#visit(shared, (family, key) => this.#families[family]!.add(key, seq, members, failed));
    this.#byIdPrefix.add(idPrefix, seq, 1, 0);
    this.#prefixLengths.add(idPrefix.length);
  }

  /**
   * The log dropped its oldest filed entry, `seq`: reads skip it from now on, and a later
   * unfileLeaving forgets it under each of its keys.
   */
  leave(shared: SharedDeliveryFields, idPrefix: string, seq: number): void {
    this.#lastLeft = seq >>> 0;
    this.#leaving.push({ shared, idPrefix, seq: this.#lastLeft });
  }

  /** Unfiles the entries that left, oldest first, as far as `spent` allows; whether none is left. */
  unfileLeaving(spent: (done: number) => boolean): boolean {
    for (let done = 0; this.#leaving.length > 0 && !spent(done); done++) {
      const { shared, idPrefix, seq } = this.#leaving.shift()!;
      this.#visit(shared, (family, key) => this.#families[family]!.removeOldest(key, seq));
      this.#byIdPrefix.removeOldest(idPrefix, seq);
    }
    return this.#leaving.length === 0;
  }

  /** The entries whose ids begin as `id` does: the one holding it is among them. */
  withId(id: string): KeyEntries[] {
    const lists: KeyEntries[] = [];
    for (const length of this.#prefixLengths)
      if (length <= id.length) lists.push(this.#liveEntries(this.#byIdPrefix, id.slice(0, length)));
    return lists;
  }

  /** How many entries the filter's key with the fewest has (its user, times and status aside). */
  fewest(filter: DeliveryFilter): number {
    return Math.min(...this.#lists(filter).map((list) => list.count));
  }

  /**
   * The entries that hold every match of `filter` (its user, times and status aside): one
   * key's, or those common to the keys of several fields. `headSeq`: the oldest entry's.
   */
  plan(filter: DeliveryFilter, headSeq: number): EntryPlan {
    const lists = this.#lists(filter);
    const exact = FIELDS.every((field) => field.byBlock !== true || filter[field.name] === undefined);
    return { entries: lists.length === 1 ? lists[0]! : common(lists, headSeq), exact };
  }

  /** The key lists a filter reads: every entry's when it names no shared field. */
  #lists(filter: DeliveryFilter): KeyEntries[] {
    const values = FIELDS.map((field) => {
      const value = filter[field.name] as string | undefined;
      return value === undefined ? undefined : field.keyOf(value);
    });
    const { keys: read } = keys.keysFor(filter.appId, values);
    if (read.length === 0) return [this.#liveEntries(this.#families[ALL_FAMILY]!, ALL_KEY)];
    return read.map(([family, key]) => this.#liveEntries(this.#families[family]!, key));
  }

  /** Every channel some live delivery went through. */
  channels(): string[] {
    const index = this.#families[CHANNEL_FAMILY]!;
    return [...index.keys()].filter((channel) => this.#liveEntries(index, channel).count > 0);
  }

  /** A key's entries the log still holds: those after the ones that left (its oldest, if any). */
  #liveEntries(index: CountedIndex, key: string): KeyEntries {
    const list = index.entries(key);
    const oldest = this.#leaving.at(0)?.seq;
    if (oldest === undefined) return list;
    // Sequence numbers compared from the oldest that left, so that they may wrap.
    const firstLive = ((this.#lastLeft - oldest) >>> 0) + 1;
    return withoutOldest(list, seek(list, 0, firstLive, oldest));
  }

  #visit(shared: SharedDeliveryFields, visit: (family: number, key: string) => void): void {
    const values = this.#keysOf(shared, this.#keys);
    for (let family = 0; family < values.length; family++) {
      const value = values[family];
      if (value === null || value === undefined) continue;
      if (typeof value === 'string') visit(family, value);
      else for (const key of value) visit(family, key);
    }
    visit(ALL_FAMILY, ALL_KEY);
  }
}
