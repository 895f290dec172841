/**
 * The last answers of the inspect lists, as the JSON bytes sent, each with the store's revision
 * when it was made. The same URL asked again before the store changed gets the same text
 * without the query or the serialisation being made again: the web inspector's every open tab,
 * and a CI fleet's clients polling one state, ask the same pages over and over, and a page of
 * 50 journal entries is ~200 KB of JSON (bench/: bursts). Any write to the store (a send, a
 * journal entry, a clear) changes the revision, so an answer is never older than the store.
 * Only answers that are a function of the stored records and the template catalog go through
 * it (the revision counts the catalog's reloads too); never one that reads the clock.
 * Kept encoded: a hit writes the bytes as they are. Kept as text, each of 100 answers of a
 * 207 KB journal page was encoded to UTF-8 again on its way to the socket (bench/: bursts).
 */
import type { Context } from 'hono';

/** How many answers are kept, and their bytes in all: the oldest go first. */
const MAX_ANSWERS = 64;
const MAX_BYTES = 8 * 1024 * 1024;
/** The largest answer kept: a quarter of them all. */
const MAX_ANSWER_BYTES = MAX_BYTES / 4;

const JSON_TYPE = { 'content-type': 'application/json' } as const;

const encoder = new TextEncoder();

interface Kept {
  revision: string;
  body: Uint8Array<ArrayBuffer>;
}

export class AnswerMemo {
  /** By URL (path and query), oldest first: a hit moves its answer to the end. */
  readonly #answers = new Map<string, Kept>();
  #bytes = 0;

  constructor(private readonly revision: () => string) {}

  /** `c.json(await answer())`, or the bytes answered to the same URL since the store's last change. */
  async json(c: Context, answer: () => unknown): Promise<Response> {
    const url = c.req.url;
    const revision = this.revision();
    const kept = this.#answers.get(url);
    if (kept !== undefined) {
      this.#forget(url, kept);
      if (kept.revision === revision) {
        this.#keep(url, kept);
        return c.body(kept.body, 200, JSON_TYPE);
      }
    }
    const body = encoder.encode(JSON.stringify(await answer()));
    // Kept under the revision it was read at: a write while a search took its turns makes it stale.
    if (body.length <= MAX_ANSWER_BYTES) this.#keep(url, { revision, body });
    return c.body(body, 200, JSON_TYPE);
  }

  #keep(url: string, kept: Kept): void {
    this.#answers.set(url, kept);
    this.#bytes += kept.body.length;
    for (const [oldest, answer] of this.#answers) {
      if (this.#answers.size <= MAX_ANSWERS && this.#bytes <= MAX_BYTES) break;
      this.#forget(oldest, answer);
    }
  }

  #forget(url: string, kept: Kept): void {
    this.#answers.delete(url);
    this.#bytes -= kept.body.length;
  }
}
