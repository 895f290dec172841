/**
 * User ids → small numbers, reused once freed: a hash table of slots in typed arrays, open
 * addressing with linear probing, never more than half full. The slots are split by the top
 * bits of the hash into SEGMENTS tables that grow one at a time: one table of a million
 * users doubled in ~50 ms, a request's wait; a segment of it takes under a millisecond. Each
 * number's hash is kept in a paged array (paged-array.ts). It keeps no id: a lookup whose
 * hash matches asks `idOf` for that number's id, which its owner reads back from the log the
 * user's records live in (the user's newest record). A million users of a full store cost
 * ~12 bytes each here, where keeping their ids cost ~60 more (a string each, most of them held
 * by nothing else once the log has packed its own copy).
 *
 * The index of each user's deliveries looks up every member of every send, and most are
 * strings no one has hashed yet (each send's ids are parsed afresh): a Map makes V8 hash all
 * of each, 1.4–2.7 ms to look up 10,000 UUIDs on a busy core, where this table, hashing a
 * dozen characters spread over each id and comparing equal ids whole, takes 1.0–1.5 ms. Ids
 * alike in those characters share a hash: once a lookup meets more than MAX_TWINS users of
 * its hash that are not its own, the table hashes every character instead, from then on. (It
 * counted probes before; at a million random ids linear probing makes runs of 32 by chance,
 * and hashing every id again, each read back from the log, held a request ~0.6 s.)
 */
import { PagedArray } from './paged-array.js';

/** Characters a sampled hash reads, spread evenly over the id. */
const SAMPLED = 12;
/** Other users of its own hash one lookup may meet before the table turns to hashing every character. */
const MAX_TWINS = 8;
/** Tables the slots are split into, by the hash's top bits (a power of two). */
const SEGMENT_BITS = 6;
const SEGMENTS = 1 << SEGMENT_BITS;
/** Slots a segment starts with: 256 in all, 1 KB. */
const FIRST_SEGMENT = 4;

export class UserNumbers {
  /** Per segment: number + 1 of the user in each slot; 0 is a free slot. */
  #segments: Int32Array[] = Array.from({ length: SEGMENTS }, () => new Int32Array(FIRST_SEGMENT));
  /** Users per segment. */
  readonly #sizes = new Int32Array(SEGMENTS);
  readonly #hashes = new PagedArray((size) => new Uint32Array(size));
  #freed: number[] = [];
  /** Numbers given out so far, freed ones included: the next fresh number. */
  #issued = 0;
  #size = 0;
  #everyCharacter = false;

  /** `idOf(user)`: the id of a number in use, read from wherever its owner keeps it. */
  constructor(private readonly idOf: (user: number) => string) {}

  /** The user's number, or -1 when it has none. */
  numberOf(userId: string): number {
    const hash = this.#hashOf(userId);
    const slots = this.#segments[hash >>> (32 - SEGMENT_BITS)]!;
    const mask = slots.length - 1;
    let twins = 0;
    for (let slot = hash & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
      const user = slots[slot]! - 1;
      if (this.#hashes.get(user) !== hash) continue;
      if (this.idOf(user) === userId) return user;
      if (++twins > MAX_TWINS && !this.#everyCharacter) {
        this.#hashEveryCharacter();
        return this.numberOf(userId);
      }
    }
    return -1;
  }

  /** A number for a user that has none (numberOf answered -1); its id must be `idOf`'s answer from now on. */
  add(userId: string): number {
    let user = this.#freed.pop();
    if (user === undefined) {
      user = this.#issued++;
      this.#hashes.reserve(this.#issued);
    }
    const hash = this.#hashOf(userId);
    this.#hashes.set(user, hash);
    const segment = hash >>> (32 - SEGMENT_BITS);
    if ((this.#sizes[segment]! + 1) * 2 > this.#segments[segment]!.length)
      this.#segments[segment] = this.#rehashed(this.#segments[segment]!, this.#segments[segment]!.length * 2);
    this.#place(this.#segments[segment]!, user);
    this.#sizes[segment]!++;
    this.#size++;
    return user;
  }

  /** Frees `user`'s number, for a later user; its id is not asked for. */
  delete(user: number): void {
    const hash = this.#hashes.get(user);
    const segment = hash >>> (32 - SEGMENT_BITS);
    const slots = this.#segments[segment]!;
    const mask = slots.length - 1;
    let slot = hash & mask;
    while (slots[slot] !== user + 1) slot = (slot + 1) & mask;
    // Backward-shift deletion: later users of the probe sequence move up into the hole,
    // unless their own home slot lies after it.
    for (let next = (slot + 1) & mask; slots[next] !== 0; next = (next + 1) & mask) {
      const home = this.#hashes.get(slots[next]! - 1) & mask;
      const stays = slot <= next ? slot < home && home <= next : slot < home || home <= next;
      if (stays) continue;
      slots[slot] = slots[next]!;
      slot = next;
    }
    slots[slot] = 0;
    this.#freed.push(user);
    this.#sizes[segment]!--;
    this.#size--;
  }

  /** Users with a number now. */
  get size(): number {
    return this.#size;
  }

  #hashOf(userId: string): number {
    const length = userId.length;
    let hash = Math.imul(0x811c9dc5 ^ length, 0x01000193);
    const step = this.#everyCharacter || length <= SAMPLED ? 1 : Math.ceil(length / SAMPLED);
    // From the end: ids that share a prefix (`user-`, a tenant) differ there first.
    for (let i = length - 1; i >= 0; i -= step) hash = Math.imul(hash ^ userId.charCodeAt(i), 0x01000193);
    return hash >>> 0;
  }

  #place(slots: Int32Array, user: number): void {
    const mask = slots.length - 1;
    let slot = this.#hashes.get(user) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = user + 1;
  }

  /** The users of `slots` placed in a table of `size` slots. */
  #rehashed(slots: Int32Array, size: number): Int32Array {
    const next = new Int32Array(size);
    for (const held of slots) if (held !== 0) this.#place(next, held - 1);
    return next;
  }

  /** Hashes every user again, whole, and files each in its segment anew (once, for ids alike where sampled). */
  #hashEveryCharacter(): void {
    this.#everyCharacter = true;
    const users: number[] = [];
    for (const slots of this.#segments) for (const held of slots) if (held !== 0) users.push(held - 1);
    for (const user of users) this.#hashes.set(user, this.#hashOf(this.idOf(user)));
    this.#sizes.fill(0);
    for (const user of users) this.#sizes[this.#hashes.get(user) >>> (32 - SEGMENT_BITS)]!++;
    this.#segments = this.#segments.map((_, segment) => {
      let size = FIRST_SEGMENT;
      while (this.#sizes[segment]! * 2 > size) size *= 2;
      return new Int32Array(size);
    });
    for (const user of users) this.#place(this.#segments[this.#hashes.get(user) >>> (32 - SEGMENT_BITS)]!, user);
  }
}
