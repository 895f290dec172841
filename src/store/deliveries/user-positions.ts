/**
 * Each user's positions along the delivery log (delivery-members.ts). Positions are filed in
 * ascending order, one after another, and leave oldest first, as the log's members do. Per
 * position, its user's number and the gaps to that user's positions before and after it, in
 * a ring of typed arrays; per user, a count and its oldest and newest positions, in typed
 * arrays too. A position leaves without its user id being read: at the retention cap a batch
 * send of 10,000 drops 10,000 members, and finding each one's list by id (a string cut from
 * the packed run and hashed, per member) held the send's answer longer than the bare route
 * takes to parse the body (bench/: batch send). No object per user or per position: a user
 * is a number and a few typed slots (user-numbers.ts), however many deliveries it has; its id
 * is read back from the log, at its newest position, only when a lookup's hash matches it.
 */

import { PagedArray } from '../common/paged-array.js';
import { UserNumbers } from '../common/user-numbers.js';

/** A gap of 0: no position before (or after) this one for its user. */
const NONE = 0;
/** The ring is halved once it is less than a quarter full, down to this size. */
const MIN_RING = 1024;

export class UserPositions {
  /** User id → its number, the index of its slots below. */
  readonly #users: UserNumbers;
  /** Per user number, in arrays that grow a page at a time (a million users' doubling held a request ~40 ms). */
  readonly #counts = new PagedArray((size) => new Uint32Array(size));
  readonly #oldest = new PagedArray((size) => new Float64Array(size));
  readonly #newest = new PagedArray((size) => new Float64Array(size));

  /** Per filed position, from #first on, at ring slot (#head + offset) & mask. */
  #owner = new Uint32Array(16);
  #gapBefore = new Uint32Array(16);
  #gapAfter = new Uint32Array(16);
  #head = 0;
  /** The oldest filed position; the filed ones are [#first, #first + #size). */
  #first = 0;
  #size = 0;

  /** `userIdAt(position)`: the user id of a filed position, read from the log. */
  constructor(userIdAt: (position: number) => string) {
    this.#users = new UserNumbers((user) => userIdAt(this.#newest.get(user)));
  }

  /** Files `position` under `userId`: the position after the newest filed, or any when none is. */
  add(userId: string, position: number): void {
    if (this.#size === 0) this.#first = position;
    else if (position !== this.#first + this.#size)
      throw new Error(`position ${position} filed out of order (next is ${this.#first + this.#size})`);
    if (this.#size === this.#owner.length) this.#resizeRing(this.#owner.length * 2);
    const slot = this.#slotOf(position);
    this.#size++;
    let user = this.#users.numberOf(userId);
    if (user < 0) {
      user = this.#newUser(userId);
      this.#oldest.set(user, position);
      this.#gapBefore[slot] = NONE;
    } else {
      const gap = position - this.#newest.get(user);
      this.#gapBefore[slot] = gap;
      this.#gapAfter[this.#slotOf(this.#newest.get(user))] = gap;
    }
    this.#gapAfter[slot] = NONE;
    this.#owner[slot] = user;
    this.#newest.set(user, position);
    this.#counts.set(user, this.#counts.get(user) + 1);
  }

  /** Forgets every filed position before `end` (the retention cap dropped them). */
  dropBefore(end: number): void {
    const mask = this.#owner.length - 1;
    while (this.#size > 0 && this.#first < end) {
      const slot = this.#head;
      const user = this.#owner[slot]!;
      const count = this.#counts.get(user) - 1;
      this.#counts.set(user, count);
      if (count === 0) this.#users.delete(user);
      else this.#oldest.set(user, this.#first + this.#gapAfter[slot]!);
      this.#head = (slot + 1) & mask;
      this.#first++;
      this.#size--;
    }
    if (this.#owner.length > MIN_RING && this.#size * 4 < this.#owner.length) this.#resizeRing(this.#owner.length / 2);
  }

  count(userId: string): number {
    const user = this.#users.numberOf(userId);
    return user < 0 ? 0 : this.#counts.get(user);
  }

  /** The user's positions, ascending or newest first with `desc`, after skipping the first `skip`. */
  *positions(userId: string, desc = false, skip = 0): Generator<number> {
    const user = this.#users.numberOf(userId);
    if (user < 0 || skip >= this.#counts.get(user)) return;
    const gaps = desc ? this.#gapBefore : this.#gapAfter;
    const sign = desc ? -1 : 1;
    let position = this.#skipped(desc ? this.#newest.get(user) : this.#oldest.get(user), gaps, sign, skip);
    for (let left = this.#counts.get(user) - skip; ; position += sign * gaps[this.#slotOf(position)]!) {
      yield position;
      if (--left === 0) return;
    }
  }

  /** The position `steps` after `position` along its user's (a loop of its own: no yield per step). */
  #skipped(position: number, gaps: Uint32Array, sign: number, steps: number): number {
    const mask = this.#owner.length - 1;
    const offset = this.#head - this.#first;
    for (let k = 0; k < steps; k++) position += sign * gaps[(offset + position) & mask]!;
    return position;
  }

  #slotOf(position: number): number {
    return (this.#head + (position - this.#first)) & (this.#owner.length - 1);
  }

  #newUser(userId: string): number {
    const user = this.#users.add(userId);
    this.#counts.reserve(user + 1);
    this.#oldest.reserve(user + 1);
    this.#newest.reserve(user + 1);
    this.#counts.set(user, 0);
    return user;
  }

  /** Moves the filed positions into rings of `size` slots (a power of two), the oldest at slot 0. */
  #resizeRing(size: number): void {
    const owner = new Uint32Array(size);
    const gapBefore = new Uint32Array(size);
    const gapAfter = new Uint32Array(size);
    for (let k = 0; k < this.#size; k++) {
      const slot = this.#slotOf(this.#first + k);
      owner[k] = this.#owner[slot]!;
      gapBefore[k] = this.#gapBefore[slot]!;
      gapAfter[k] = this.#gapAfter[slot]!;
    }
    this.#owner = owner;
    this.#gapBefore = gapBefore;
    this.#gapAfter = gapAfter;
    this.#head = 0;
  }
}
