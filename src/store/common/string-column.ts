/**
 * One field of a block of records (a few thousand recipients or analytics events), kept in
 * whichever form takes least heap: one value for all; a dictionary (each distinct value
 * once, a 1 or 2 byte code per record); ids that end in a hex counter (the prefixes as a
 * dictionary, the counter as a number: ids the emulator names come in runs); timestamps as
 * numbers (when each is what toISOString gives back); or every value packed into one string
 * (packed-text.ts), and, for a column read seldom, that string deflated. Each form is a
 * handful of objects however many records the block holds.
 * Values are read back exactly as given.
 */
import { PackedText, type DeflatedText } from './packed-text.js';

export interface StringColumn {
  readonly length: number;
  at(index: number): string;
}

/** How a block's values split into the dictionary's entries and a code per value. */
interface Distinct {
  values: string[];
  codes: Uint8Array | Uint16Array;
}

/** Blocks hold at most this many values: a code always fits 16 bits. */
const MAX_COLUMN_LENGTH = 65_536;
/** The hex digits an emulator id ends with (its counter: platform/random.ts). */
export const COUNTER_DIGITS = 6;
/** `2026-01-01T00:00:00.000Z`: what Date.prototype.toISOString gives for years 0000-9999. */
const ISO_LENGTH = 24;

class ConstantColumn implements StringColumn {
  constructor(
    readonly length: number,
    private readonly value: string,
  ) {}
  at(): string {
    return this.value;
  }
}

class DictionaryColumn implements StringColumn {
  constructor(
    private readonly entries: PackedText,
    private readonly codes: Uint8Array | Uint16Array,
  ) {}
  get length(): number {
    return this.codes.length;
  }
  at(index: number): string {
    return this.entries.at(this.codes[index]!)!;
  }
}

class CounterColumn implements StringColumn {
  constructor(
    private readonly prefixes: PackedText,
    private readonly codes: Uint8Array | Uint16Array,
    private readonly counters: Uint32Array,
  ) {}
  get length(): number {
    return this.codes.length;
  }
  at(index: number): string {
    return joinCounter(this.prefixes.at(this.codes[index]!)!, this.counters[index]!);
  }
}

class PackedColumn implements StringColumn {
  constructor(private readonly text: PackedText) {}
  get length(): number {
    return this.text.length;
  }
  at(index: number): string {
    return this.text.at(index)!;
  }
}

/**
 * Packed text that its owner may have deflated later (deflate(): packed-text.ts DeflatedText),
 * kept so when that is smaller. Sealing only packs: deflating a block's variables as it was
 * sealed made a 100,000-row upload's sealing ~100 ms longer, and a campaign sent right after
 * found blocks not yet sealed.
 */
export class DeflatableColumn implements StringColumn {
  #text: PackedText | DeflatedText;
  /** deflate() ran (the text is kept deflated only when that was smaller). */
  #tried = false;
  constructor(packed: PackedText) {
    this.#text = packed;
  }
  /** Whether deflate() has run. */
  get tried(): boolean {
    return this.#tried;
  }
  /** Whether the text is held deflated now. */
  get deflated(): boolean {
    return !(this.#text instanceof PackedText);
  }
  /** Deflates the text, kept so when smaller; once. */
  deflate(): void {
    if (this.#tried || !(this.#text instanceof PackedText)) return;
    this.#tried = true;
    const deflated = this.#text.deflated();
    if (deflated.bytes < this.#text.bytes) this.#text = deflated;
  }
  get length(): number {
    return this.#text.length;
  }
  at(index: number): string {
    return this.#text.at(index)!;
  }
}

class TimeColumn implements StringColumn {
  /** The text up to the milliseconds of the second last read: a block's times share a few seconds. */
  #second = Number.NaN;
  #secondText = '';
  constructor(private readonly times: Float64Array) {}
  get length(): number {
    return this.times.length;
  }
  at(index: number): string {
    const time = this.times[index]!;
    const second = Math.floor(time / 1000);
    if (second !== this.#second) {
      this.#second = second;
      this.#secondText = new Date(second * 1000).toISOString().slice(0, ISO_LENGTH - 4);
    }
    return this.#secondText + String(time - second * 1000).padStart(3, '0') + 'Z';
  }
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The separators of `2026-01-01T00:00:00.000Z` by position: every other character is a digit. */
const ISO_SEPARATORS = new Map(
  [...'2026-01-01T00:00:00.000Z'].flatMap((c, at) => (c >= '0' && c <= '9' ? [] : [[at, c]])),
);

/** The number `count` digits from `from` spell, or -1 when one is not a digit. */
function digitsAt(value: string, from: number, count: number): number {
  let n = 0;
  for (let at = from; at < from + count; at++) {
    const digit = value.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/**
 * The instant of `value` when toISOString gives `value` back for it, else NaN. Checked by its
 * characters and field ranges (Date.parse alone takes 2026-02-30 and 24:00), not by calling
 * toISOString: a block of 2,048 times is checked in microseconds.
 */
function isoTime(value: string): number {
  if (value.length !== ISO_LENGTH) return Number.NaN;
  for (const [at, separator] of ISO_SEPARATORS) if (value[at] !== separator) return Number.NaN;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (year < 0 || day < 1 || day > days) return Number.NaN;
  const [hour, minute, second, ms] = [
    digitsAt(value, 11, 2),
    digitsAt(value, 14, 2),
    digitsAt(value, 17, 2),
    digitsAt(value, 20, 3),
  ];
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return Number.NaN;
  return ((daysSinceEpoch(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil): Date.parse costs more. */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The values as epoch ms when each is exactly what toISOString gives for its instant, else null. */
function isoTimes(values: readonly string[]): Float64Array | null {
  const times = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const time = isoTime(values[i]!);
    if (Number.isNaN(time)) return null;
    times[i] = time;
  }
  return times;
}

function distinct(values: readonly string[], keyOf: (value: string) => string): Distinct {
  const entries = new Map<string, number>();
  const codes = values.length <= 256 ? new Uint8Array(values.length) : new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const key = keyOf(values[i]!);
    let code = entries.get(key);
    if (code === undefined) entries.set(key, (code = entries.size));
    codes[i] = code;
  }
  const list = [...entries.keys()];
  // Codes of 256 entries or fewer fit a byte whatever the block's length.
  return { values: list, codes: list.length <= 256 && codes instanceof Uint16Array ? Uint8Array.from(codes) : codes };
}

/** Values sampled to tell a column of distinct values (user ids, variables) from one that repeats. */
const SAMPLE = 128;

/**
 * Whether a dictionary may pay: the first SAMPLE values repeat at least one in four times.
 * Hashing a block of distinct long values (variables' JSON) into a map only to find no
 * repeats was a third of the time a block took to seal.
 */
function mayRepeat(values: readonly string[]): boolean {
  const sample = new Set(values.length <= SAMPLE ? values : values.slice(0, SAMPLE));
  return sample.size * 4 <= Math.min(values.length, SAMPLE) * 3;
}

/**
 * The number the COUNTER_DIGITS lower-case hex digits of `value` from `from` on spell (what
 * toString(16) gives back), or -1 when they are not such digits. Read in place: a campaign
 * send reads one per recipient, where a slice and a parse would make a string each.
 */
export function counterAt(value: string, from: number): number {
  if (from < 0 || from + COUNTER_DIGITS > value.length) return -1;
  let counter = 0;
  for (let i = from; i < from + COUNTER_DIGITS; i++) {
    const c = value.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    counter = counter * 16 + digit;
  }
  return counter;
}

/** Whether `value` ends in COUNTER_DIGITS lower-case hex digits. */
const endsInCounter = (value: string): boolean => counterAt(value, value.length - COUNTER_DIGITS) >= 0;

const withoutCounter = (value: string) => value.slice(0, -COUNTER_DIGITS);

/** An emulator id as its prefix and counter (a number: 4 bytes where the digits take 6), or null when it is not one. */
export function splitCounter(value: string): { prefix: string; counter: number } | null {
  const counter = value.length > COUNTER_DIGITS ? counterAt(value, value.length - COUNTER_DIGITS) : -1;
  return counter < 0 ? null : { prefix: withoutCounter(value), counter };
}

/** The counter of `value` when it is `prefix` and COUNTER_DIGITS counter digits (a range's id), else -1. */
export const counterAfter = (value: string, prefix: string): number =>
  value.length === prefix.length + COUNTER_DIGITS && value.startsWith(prefix) ? counterAt(value, prefix.length) : -1;

/**
 * The prefixes of ids that end in a counter, one string for every id of a prefix while ids of
 * it come (the emulator names its ids in runs: a second's share one prefix), rather than one
 * per id.
 */
export class RunPrefixes {
  #last: string | null = null;

  /** `value` without its counter digits (the same string as the ids before it of that prefix), or null without them. */
  of(value: string): string | null {
    if (this.#last !== null && counterAfter(value, this.#last) >= 0) return this.#last;
    const split = splitCounter(value);
    if (split === null) return null;
    this.#last = split.prefix;
    return split.prefix;
  }
}

/** The id splitCounter split. */
export const joinCounter = (prefix: string, counter: number): string =>
  prefix + counter.toString(16).padStart(COUNTER_DIGITS, '0');

/** Packed text shorter than this is never deflatable: what it would save is not worth a read's inflate. */
const DEFLATE_FROM_CHARS = 16_384;

export interface SealOptions {
  /**
   * Whether packed values come as a DeflatableColumn, for their owner to deflate later: for
   * a column read seldom and a page at a time, never by a send. @default false
   */
  deflatable?: boolean;
}

/** The column of `values` (at most MAX_COLUMN_LENGTH) in the form that takes least heap. */
export function sealStrings(values: readonly string[], { deflatable = false }: SealOptions = {}): StringColumn {
  if (values.length > MAX_COLUMN_LENGTH) throw new RangeError(`sealStrings: ${values.length} values`);
  const first = values[0] ?? '';
  if (values.every((v) => v === first)) return new ConstantColumn(values.length, first);
  const packed = PackedText.of(values);
  let best: { bytes: number; column: () => StringColumn } = {
    bytes: packed.bytes,
    column: () => new PackedColumn(packed),
  };
  if (mayRepeat(values)) {
    const whole = distinct(values, (v) => v);
    const entries = PackedText.of(whole.values);
    if (entries.bytes + whole.codes.byteLength < best.bytes)
      best = {
        bytes: entries.bytes + whole.codes.byteLength,
        column: () => new DictionaryColumn(entries, whole.codes),
      };
  }
  if (values.every(endsInCounter)) {
    const split = distinct(values, withoutCounter);
    const prefixes = PackedText.of(split.values);
    const bytes = prefixes.bytes + split.codes.byteLength + 4 * values.length;
    if (bytes < best.bytes) {
      const counters = new Uint32Array(values.length);
      for (let i = 0; i < values.length; i++) counters[i] = counterAt(values[i]!, values[i]!.length - COUNTER_DIGITS);
      best = { bytes, column: () => new CounterColumn(prefixes, split.codes, counters) };
    }
  }
  const times = isoTimes(values);
  if (times !== null && times.byteLength < best.bytes) return new TimeColumn(times);
  const column = best.column();
  if (deflatable && column instanceof PackedColumn && packed.bytes >= DEFLATE_FROM_CHARS)
    return new DeflatableColumn(packed);
  return column;
}

/**
 * Seals `fields` one at a time into `done` until `spent` says stop: the columns once every
 * field is sealed, else null (call again with the same `done` to go on). A block's fields are
 * then sealed over several slices, never all in one: the first blocks sealed after a start,
 * before V8 has compiled this code, took up to ~90 ms.
 */
export function sealFields<F extends string>(
  fields: readonly F[],
  done: Partial<Record<F, StringColumn>>,
  valuesOf: (field: F) => readonly string[],
  spent: () => boolean,
): Record<F, StringColumn> | null {
  for (const field of fields) {
    if (done[field] !== undefined) continue;
    if (spent()) return null;
    done[field] = sealStrings(valuesOf(field));
  }
  return done as Record<F, StringColumn>;
}
