/**
 * The delivery log's entry indexes: every entry (a send's run, or one delivery) filed under
 * each value a delivery filter can name, alone and within its app (filter-keys.ts), plus one
 * list of every entry, each with its members and failures counted (counted-index.ts). A
 * filter on one field, or on one field and the app, is then one key: its total is read, not
 * counted, and its page found by binary search. Users are indexed apart, by member
 * (delivery-log.ts), since the members of one run differ in nothing else.
 */
import type { DeliveryFilter, SharedDeliveryFields } from '../domain/ports.js';
import { CountedIndex, type KeyEntries } from './counted-index.js';
import { filterKeys, type KeyField } from './filter-keys.js';
import type { KeyValue } from './keyed-log.js';

/** A delivery through a channel named twice went through it once. */
function channelsOf(d: SharedDeliveryFields): KeyValue {
  const channels = d.channels;
  for (let i = 1; i < channels.length; i++) if (channels.indexOf(channels[i]!) < i) return [...new Set(channels)];
  return channels;
}

/** The filter fields an entry's shared fields answer, in the order keysFor is given their values. */
const FIELDS: readonly (KeyField<SharedDeliveryFields> & { name: keyof DeliveryFilter })[] = [
  { name: 'notificationId', valueOf: (d) => d.notificationId, withApp: false },
  { name: 'campaignId', valueOf: (d) => d.campaignId, withApp: false },
  { name: 'templateKey', valueOf: (d) => d.templateKey, withApp: true },
  { name: 'templateId', valueOf: (d) => d.templateId, withApp: true },
  { name: 'mode', valueOf: (d) => d.mode, withApp: true },
  { name: 'tag', valueOf: (d) => d.tag, withApp: true },
  { name: 'channel', valueOf: channelsOf, withApp: true },
];
const keys = filterKeys<SharedDeliveryFields>((d) => d.appId, FIELDS);
const CHANNEL_FAMILY = 1 + FIELDS.findIndex((f) => f.name === 'channel');
/** The family every entry is filed in, under one key. */
const ALL_FAMILY = keys.families;
const ALL_KEY = '';

/** Where a filter's candidates are: one key's entries, and whether that key answers every shared field it names. */
export interface EntryPlan {
  entries: KeyEntries;
  /** True when only time and status are left to test (a key's counts then answer without a visit). */
  exact: boolean;
}

export class DeliveryIndexes {
  readonly #families = Array.from({ length: ALL_FAMILY + 1 }, () => new CountedIndex());

  /** Files an entry (`members` deliveries as added, `failed` of them failed) under each of its keys. */
  file(shared: SharedDeliveryFields, seq: number, members: number, failed: number): void {
    this.#visit(shared, (family, key) => this.#families[family]!.add(key, seq, members, failed));
  }

  /** Forgets the oldest entry, `seq`, under each of its keys. */
  unfile(shared: SharedDeliveryFields, seq: number): void {
    this.#visit(shared, (family, key) => this.#families[family]!.removeOldest(key, seq));
  }

  /** The fewest entries that hold every match of `filter` (its user and status aside). */
  plan(filter: DeliveryFilter): EntryPlan {
    const values = FIELDS.map((field) => filter[field.name] as string | undefined);
    const { keys: read, exact } = keys.keysFor(filter.appId, values);
    let entries = this.#families[ALL_FAMILY]!.entries(ALL_KEY);
    for (const [family, key] of read) {
      const candidate = this.#families[family]!.entries(key);
      if (exact || candidate.count < entries.count) entries = candidate;
    }
    return { entries, exact };
  }

  /** Every channel some live delivery went through. */
  channels(): string[] {
    return [...this.#families[CHANNEL_FAMILY]!.keys()];
  }

  #visit(shared: SharedDeliveryFields, visit: (family: number, key: string) => void): void {
    const values = keys.keysOf(shared);
    for (let family = 0; family < values.length; family++) {
      const value = values[family];
      if (value === null || value === undefined) continue;
      if (typeof value === 'string') visit(family, value);
      else for (const key of value) visit(family, key);
    }
    visit(ALL_FAMILY, ALL_KEY);
  }
}
