import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Strings kept as one heap string plus where each ends (nothing more when they all have one
 * width). A block of thousands of strings is then two objects instead of thousands, which
 * the garbage collector would copy when they survive and mark on every full collection
 * (bench/: batch send, and a million stored deliveries, recipients or analytics events).
 */
export class PackedText {
  readonly length: number;
  readonly #text: string;
  /** Where member i ends in #text; null when every member is #width long. */
  readonly #ends: Uint32Array | null;
  readonly #width: number;

  private constructor(text: string, ends: Uint32Array | null, width: number, length: number) {
    this.#text = text;
    this.#ends = ends;
    this.#width = width;
    this.length = length;
  }

  static of(values: readonly string[]): PackedText {
    const text = values.join('');
    const ends = endOffsets(values);
    const width = commonWidth(ends);
    return new PackedText(text, width < 0 ? ends : null, width, values.length);
  }

  /** The same strings deflated, for a column read seldom (see DeflatedText). */
  deflated(): DeflatedText {
    // Latin-1 text is a byte a character; any other, two (UTF-16 keeps every code unit as given).
    const encoding = NOT_LATIN1.test(this.#text) ? 'utf16le' : 'latin1';
    const parts: Uint8Array[] = [];
    for (let from = 0; from < this.length; from += DEFLATED_PART) {
      const text = this.#text.slice(this.#start(from), this.#start(Math.min(this.length, from + DEFLATED_PART)));
      // Copied out: zlib's answer is a view into an output chunk of 16 KiB, which it would keep whole.
      parts.push(new Uint8Array(deflateRawSync(Buffer.from(text, encoding), { level: DEFLATE_LEVEL })));
    }
    const width = this.#width;
    // The ends as each member's length, in the narrowest array that holds them (a part's
    // ends are rebuilt when it is inflated).
    const lengths = this.#ends === null ? null : narrowLengths(this.#ends);
    const rebuild = (text: string, from: number, to: number) => {
      if (lengths === null) return new PackedText(text, null, width, to - from);
      const ends = new Uint32Array(to - from);
      let end = 0;
      for (let i = from; i < to; i++) ends[i - from] = end += lengths[i]!;
      return new PackedText(text, ends, width, to - from);
    };
    return new DeflatedText(parts, encoding, lengths?.byteLength ?? 0, this.length, rebuild);
  }

  /** Characters kept, and 4 bytes an end offset: what the column costs (string-column.ts picks the least). */
  get bytes(): number {
    return this.#text.length + (this.#ends === null ? 0 : 4 * this.length);
  }

  at(index: number): string | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return this.#text.slice(this.#start(index), this.#end(index));
  }

  /** Whether member `index` is `value`, compared in place (no slice made). */
  equals(index: number, value: string): boolean {
    const start = this.#start(index);
    return this.#end(index) - start === value.length && this.#text.startsWith(value, start);
  }

  /**
   * Where `value` sits, ascending: found with the text's own search (one pass over the text,
   * not a slice per member); a hit counts only where a member starts and ends.
   */
  indexesOf(value: string): number[] {
    const found: number[] = [];
    if (value === '') {
      for (let i = 0; i < this.length; i++) if (this.#end(i) === this.#start(i)) found.push(i);
      return found;
    }
    for (let at = this.#text.indexOf(value); at >= 0; at = this.#text.indexOf(value, at + 1)) {
      const member = this.#memberStartingAt(at);
      if (member >= 0 && this.#end(member) === at + value.length) found.push(member);
    }
    return found;
  }

  #start(index: number): number {
    if (this.#ends === null) return index * this.#width;
    return index === 0 ? 0 : this.#ends[index - 1]!;
  }

  #end(index: number): number {
    return this.#ends === null ? (index + 1) * this.#width : this.#ends[index]!;
  }

  /** The member starting at `offset`, or -1 when none does (binary search: ends ascend). */
  #memberStartingAt(offset: number): number {
    if (this.#ends === null) return this.#width > 0 && offset % this.#width === 0 ? offset / this.#width : -1;
    let low = 0;
    let high = this.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#ends[middle]! <= offset) low = middle + 1;
      else high = middle;
    }
    return this.#start(low) === offset ? low : -1;
  }
}

/**
 * Where each string ends once they are joined. A function of its own, with nothing after its
 * loop: V8 compiles a long loop while it runs (on-stack replacement), before the code after it
 * has run once, and code there that needs type feedback made that compiled loop deoptimise on
 * every later call, in some runs, so each batch send began its 10,000 turns in the interpreter
 * again (node --trace-deopt: the same opt id each send).
 */
function endOffsets(values: readonly string[]): Uint32Array {
  const ends = new Uint32Array(values.length);
  let end = 0;
  for (let i = 0; i < values.length; i++) ends[i] = end += (values[i] as string).length;
  return ends;
}

/** The width every member has (ids of one kind), or -1 when they differ or there are none. */
function commonWidth(ends: Uint32Array): number {
  if (ends.length === 0) return -1;
  const width = ends[0]!;
  for (let i = 1; i < ends.length; i++) if (ends[i]! - ends[i - 1]! !== width) return -1;
  return width;
}

/** Each member's length from `ends`, a byte each when all are under 256, two when under 65,536. */
function narrowLengths(ends: Uint32Array): Uint8Array | Uint16Array | Uint32Array {
  let longest = 0;
  for (let i = 0; i < ends.length; i++) longest = Math.max(longest, ends[i]! - (i === 0 ? 0 : ends[i - 1]!));
  const lengths =
    longest < 256
      ? new Uint8Array(ends.length)
      : longest < 65_536
        ? new Uint16Array(ends.length)
        : new Uint32Array(ends.length);
  for (let i = 0; i < ends.length; i++) lengths[i] = ends[i]! - (i === 0 ? 0 : ends[i - 1]!);
  return lengths;
}

/** A character past Latin-1 (U+0100 or above). */
const NOT_LATIN1 = /[\u0100-\uffff]/;
/** zlib's level 3: as small as its default on recipients' variables, at a third of the time. */
const DEFLATE_LEVEL = 3;

/**
 * Members per deflated part: a part's text stays under the ~128 KB past which V8 gives a
 * string pages of its own (a read of such a part cost ~1 ms in page faults, one of 512
 * members of a recipient's image JSON ~0.1 ms).
 */
const DEFLATED_PART = 512;

/**
 * Packed strings deflated (zlib) in parts of DEFLATED_PART members, their lengths kept: for
 * values read seldom and in runs (a block of recipients' variables, read when a page of them
 * or of their deliveries is), where the text is most of what a record costs. Reading a value
 * inflates its part; the part inflated last is kept while anything still holds it (a
 * WeakRef), so a page read in one turn inflates it once and the collector takes it back after.
 */
export class DeflatedText {
  #recent: { part: number; text: WeakRef<PackedText> } | undefined;

  constructor(
    private readonly parts: readonly Uint8Array[],
    private readonly encoding: 'latin1' | 'utf16le',
    private readonly lengthsBytes: number,
    readonly length: number,
    private readonly rebuild: (text: string, from: number, to: number) => PackedText,
  ) {}

  /** The deflated parts and the members' lengths: what the column costs (string-column.ts picks the least). */
  get bytes(): number {
    let bytes = this.lengthsBytes;
    // The memory each part holds, not its length: a view would keep all of its buffer.
    for (const part of this.parts) bytes += part.buffer.byteLength;
    return bytes;
  }

  at(index: number): string | undefined {
    if (index < 0 || index >= this.length) return undefined;
    const part = Math.floor(index / DEFLATED_PART);
    return this.#part(part).at(index - part * DEFLATED_PART);
  }

  #part(part: number): PackedText {
    let text = this.#recent?.part === part ? this.#recent.text.deref() : undefined;
    if (text === undefined) {
      const from = part * DEFLATED_PART;
      const inflated = inflateRawSync(this.parts[part]!).toString(this.encoding);
      text = this.rebuild(inflated, from, Math.min(this.length, from + DEFLATED_PART));
      this.#recent = { part, text: new WeakRef(text) };
    }
    return text;
  }
}
