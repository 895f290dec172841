/**
 * The app's router: hono's TrieRouter, with the match of each path that has no parameters
 * remembered, so a send or an inspect query is one map lookup instead of a walk.
 *
 * Why not hono's faster RegExpRouter: it refuses a static segment beside a parameter at the
 * same place (`/channels/availability` beside `/channels/:id`, `/campaigns/upload` beside
 * `/campaigns/:id/recipients`), and the API has both. Hono's default router then falls back
 * to the TrieRouter, which splits the path, walks the tree and sorts the handlers on every
 * request: about a tenth of a realtime send's cost over HTTP (docs/performance.md#where-the-speed-comes-from).
 *
 * A match is the same every time for a given method and path, so remembering it changes
 * nothing but the cost. Matches with parameters (`/campaigns/:id`) are not remembered: their
 * paths are as many as the ids. Paths no route has (404s, scanners) are remembered too, so
 * the memory is bounded: it starts over when full, and long paths are not kept.
 */
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

/** Distinct method and path pairs remembered before the memory starts over. */
const MATCHES_KEPT = 1000;

/** Longer paths are matched each time: the API's own are short, and a scanner's 16 KB paths
 * would otherwise hold up to 16 MB in the memory. */
const LONGEST_PATH_KEPT = 256;

export class RememberingRouter<T> implements Router<T> {
  readonly name = 'RememberingRouter';
  readonly #trie = new TrieRouter<T>();
  readonly #matches = new Map<string, Result<T>>();

  /** How many matches are remembered now (at most MATCHES_KEPT). */
  get remembered(): number {
    return this.#matches.size;
  }

  add(method: string, path: string, handler: T): void {
    this.#matches.clear();
    this.#trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    const known = this.#matches.get(key);
    if (known !== undefined) return known;
    const found = this.#trie.match(method, path);
    if (path.length <= LONGEST_PATH_KEPT && hasNoParams(found)) {
      if (this.#matches.size >= MATCHES_KEPT) this.#matches.clear();
      this.#matches.set(key, found);
    }
    return found;
  }
}

/** The TrieRouter's result is `[[handler, params][]]`; hono reads it and never changes it. */
function hasNoParams<T>(found: Result<T>): boolean {
  for (const [, params] of found[0] as [T, Record<string, unknown>][]) for (const _ in params) return false;
  return true;
}
