/**
 * One app's users in the analytics log (analytics-log.ts): each user's newest position, by a
 * number from a table that keeps no id (user-numbers.ts); a user's id is read back from the
 * log at that position when a lookup's hash matches. A million users cost ~20 bytes each, where
 * a Map from id to position cost ~30, and kept each event's id string alive besides.
 */
import { PagedArray } from '../common/paged-array.js';
import { UserNumbers } from '../common/user-numbers.js';

export class NewestByUser {
  readonly #numbers: UserNumbers;
  readonly #newest = new PagedArray((size) => new Float64Array(size));

  /** `userIdAt(position)`: the user id of the app's event at a live position of the log. */
  constructor(userIdAt: (position: number) => string) {
    this.#numbers = new UserNumbers((user) => userIdAt(this.#newest.get(user)));
  }

  /** Users with an event. */
  get size(): number {
    return this.#numbers.size;
  }

  /** The user's newest position, or undefined when it has none. */
  newest(userId: string): number | undefined {
    const user = this.#numbers.numberOf(userId);
    return user < 0 ? undefined : this.#newest.get(user);
  }

  /** `position` becomes the user's newest: the distance back to its previous newest (0: none). */
  link(userId: string, position: number): number {
    let user = this.#numbers.numberOf(userId);
    const previous = user < 0 ? undefined : this.#newest.get(user);
    if (user < 0) {
      user = this.#numbers.add(userId);
      this.#newest.reserve(user + 1);
    }
    this.#newest.set(user, position);
    return previous === undefined ? 0 : position - previous;
  }

  /** The event at `position` leaves: its user is forgotten when it was the user's newest. */
  dropped(userId: string, position: number): void {
    const user = this.#numbers.numberOf(userId);
    if (user >= 0 && this.#newest.get(user) === position) this.#numbers.delete(user);
  }
}
