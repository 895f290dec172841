/**
 * User ids → small numbers, reused once freed (user-positions.ts): a hash table of slots in a
 * typed array, open addressing with linear probing, never more than half full. The index of
 * each user's deliveries looks up every member of every send, and most are strings no one has
 * hashed yet (each send's ids are parsed afresh): a Map makes V8 hash all of each, 1.4–2.7 ms
 * to look up 10,000 UUIDs on a busy core, where this table, hashing a dozen characters spread
 * over each id and comparing equal ids whole, takes 1.0–1.5 ms. Ids alike in those characters
 * make probes long: past MAX_PROBES the table hashes every character instead, from then on.
 */

/** Characters a sampled hash reads, spread evenly over the id. */
const SAMPLED = 12;
/** Slots one lookup may visit before the table turns to hashing every character. */
const MAX_PROBES = 32;

export class UserNumbers {
  /** Number + 1 of the user in each slot; 0 is a free slot. */
  #slots = new Int32Array(16);
  #hashes = new Uint32Array(8);
  #ids: (string | undefined)[] = [];
  #freed: number[] = [];
  #size = 0;
  #everyCharacter = false;

  /** The user's number, or -1 when it has none. */
  numberOf(userId: string): number {
    const mask = this.#slots.length - 1;
    const hash = this.#hashOf(userId);
    let probes = 0;
    for (let slot = hash & mask; this.#slots[slot] !== 0; slot = (slot + 1) & mask) {
      const user = this.#slots[slot]! - 1;
      if (this.#hashes[user] === hash && this.#ids[user] === userId) return user;
      if (++probes > MAX_PROBES && !this.#everyCharacter) {
        this.#hashEveryCharacter();
        return this.numberOf(userId);
      }
    }
    return -1;
  }

  /** A number for a user that has none (numberOf answered -1). */
  add(userId: string): number {
    if ((this.#size + 1) * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    let user = this.#freed.pop();
    if (user === undefined) {
      user = this.#ids.length;
      if (user === this.#hashes.length) {
        const hashes = new Uint32Array(user * 2);
        hashes.set(this.#hashes);
        this.#hashes = hashes;
      }
    }
    this.#ids[user] = userId;
    this.#hashes[user] = this.#hashOf(userId);
    this.#place(user);
    this.#size++;
    return user;
  }

  /** Frees `user`'s number: its id is forgotten and the number given to a later user. */
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
    this.#ids[user] = undefined;
    this.#freed.push(user);
    this.#size--;
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
    this.#slots = new Int32Array(size);
    for (let user = 0; user < this.#ids.length; user++) if (this.#ids[user] !== undefined) this.#place(user);
  }

  #hashEveryCharacter(): void {
    this.#everyCharacter = true;
    for (let user = 0; user < this.#ids.length; user++) {
      const id = this.#ids[user];
      if (id !== undefined) this.#hashes[user] = this.#hashOf(id);
    }
    this.#rehash(this.#slots.length);
  }
}
