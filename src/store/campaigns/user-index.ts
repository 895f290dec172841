/**
 * Which users a campaign already has: a hash table of positions in typed arrays, the user
 * ids themselves read from the list when two hashes meet. About 12 bytes a recipient, where
 * a Set of the ids took ~55 (each id its own string, sliced from the packed block).
 */

/** FNV-1a over the UTF-16 units. */
function hashOf(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export class UserIndex {
  /** Position + 1 of the recipient in each slot; 0 is a free slot. Never more than half full. */
  #slots = new Int32Array(16);
  /** Each position's hash: the table grows without reading a user id again. */
  #hashes = new Uint32Array(16);
  #size = 0;

  constructor(private readonly userIdEquals: (position: number, userId: string) => boolean) {}

  /** Files the recipient at `position` (positions are added in order: 0, 1, 2, …). */
  add(position: number, userId: string): void {
    if (position >= this.#hashes.length) {
      const hashes = new Uint32Array(Math.max(position + 1, this.#hashes.length * 2));
      hashes.set(this.#hashes);
      this.#hashes = hashes;
    }
    const hash = hashOf(userId);
    this.#hashes[position] = hash;
    if (++this.#size * 2 > this.#slots.length) this.#grow();
    this.#place(position, hash);
  }

  has(userId: string): boolean {
    const mask = this.#slots.length - 1;
    const hash = hashOf(userId);
    for (let slot = hash & mask; this.#slots[slot] !== 0; slot = (slot + 1) & mask) {
      const position = this.#slots[slot]! - 1;
      if (this.#hashes[position] === hash && this.userIdEquals(position, userId)) return true;
    }
    return false;
  }

  #place(position: number, hash: number): void {
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = position + 1;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Int32Array(old.length * 2);
    for (const entry of old) if (entry !== 0) this.#place(entry - 1, this.#hashes[entry - 1]!);
  }
}
