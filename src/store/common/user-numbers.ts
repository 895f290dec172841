/**
 * User ids → small numbers, reused once freed: a hash table of slots in a typed array, open
 * addressing with linear probing, never more than half full. It keeps no id: a lookup whose
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

/** Characters a sampled hash reads, spread evenly over the id. */
const SAMPLED = 12;
/** Other users of its own hash one lookup may meet before the table turns to hashing every character. */
const MAX_TWINS = 8;

export class UserNumbers {
  /** Number + 1 of the user in each slot; 0 is a free slot. */
  #slots = new Int32Array(16);
  #hashes = new Uint32Array(8);
  #freed: number[] = [];
  /** Numbers given out so far, freed ones included: the next fresh number. */
  #issued = 0;
  #size = 0;
  #everyCharacter = false;

  /** `idOf(user)`: the id of a number in use, read from wherever its owner keeps it. */
  constructor(private readonly idOf: (user: number) => string) {}

  /** The user's number, or -1 when it has none. */
  numberOf(userId: string): number {
    const mask = this.#slots.length - 1;
    const hash = this.#hashOf(userId);
    let twins = 0;
    for (let slot = hash & mask; this.#slots[slot] !== 0; slot = (slot + 1) & mask) {
      const user = this.#slots[slot]! - 1;
      if (this.#hashes[user] !== hash) continue;
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
    if ((this.#size + 1) * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    let user = this.#freed.pop();
    if (user === undefined) {
      user = this.#issued++;
      if (user === this.#hashes.length) {
        const hashes = new Uint32Array(user * 2);
        hashes.set(this.#hashes);
        this.#hashes = hashes;
      }
    }
    this.#hashes[user] = this.#hashOf(userId);
    this.#place(user);
    this.#size++;
    return user;
  }

  /** Frees `user`'s number, for a later user; its id is not asked for. */
  delete(user: number): void {
    const mask = this.#slots.length - 1;
    let slot = this.#hashes[user]! & mask;
    while (this.#slots[slot] !== user + 1) slot = (slot + 1) & mask;
    // Backward-shift deletion: later users of the probe sequence move up into the hole,
    // unless their own home slot lies after it.
    for (let next = (slot + 1) & mask; this.#slots[next] !== 0; next = (next + 1) & mask) {
      const home = this.#hashes[this.#slots[next]! - 1]! & mask;
      const stays = slot <= next ? slot < home && home <= next : slot < home || home <= next;
      if (stays) continue;
      this.#slots[slot] = this.#slots[next]!;
      slot = next;
    }
    this.#slots[slot] = 0;
    this.#freed.push(user);
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

  #place(user: number): void {
    const mask = this.#slots.length - 1;
    let slot = this.#hashes[user]! & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = user + 1;
  }

  #rehash(size: number): void {
    const old = this.#slots;
    this.#slots = new Int32Array(size);
    for (const held of old) if (held !== 0) this.#place(held - 1);
  }

  #hashEveryCharacter(): void {
    this.#everyCharacter = true;
    for (const held of this.#slots) if (held !== 0) this.#hashes[held - 1] = this.#hashOf(this.idOf(held - 1));
    this.#rehash(this.#slots.length);
  }
}
