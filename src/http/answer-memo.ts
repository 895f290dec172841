/**
 * The last answers of the inspect lists, as the JSON text sent, each with the store's revision
 * when it was made. The same URL asked again before the store changed gets the same text
 * without the query or the serialisation being made again: the web inspector's every open tab,
 * and a CI fleet's clients polling one state, ask the same pages over and over, and a page of
 * 50 journal entries is ~200 KB of JSON (bench/: bursts). Any write to the store (a send, a
 * journal entry, a clear) changes the revision, so an answer is never older than the store.
 * Only answers that are a function of the stored records and the template catalog go through
 * it (the revision counts the catalog's reloads too); never one that reads the clock.
 */
import type { Context } from 'hono';

/** How many answers are kept, and their text in all (UTF-16 units): the oldest go first. */
const MAX_ANSWERS = 64;
const MAX_CHARS = 4 * 1024 * 1024;

const JSON_TYPE = { 'content-type': 'application/json' } as const;

interface Kept {
  revision: string;
  text: string;
}

export class AnswerMemo {
  /** By URL (path and query), oldest first: a hit moves its answer to the end. */
  readonly #answers = new Map<string, Kept>();
  #chars = 0;

  constructor(private readonly revision: () => string) {}

  /** `c.json(await answer())`, or the text answered to the same URL since the store's last change. */
  async json(c: Context, answer: () => unknown): Promise<Response> {
    const url = c.req.url;
    const revision = this.revision();
    const kept = this.#answers.get(url);
    if (kept !== undefined) {
      this.#forget(url, kept);
      if (kept.revision === revision) {
        this.#keep(url, kept);
        return c.body(kept.text, 200, JSON_TYPE);
      }
    }
    const text = JSON.stringify(await answer());
    // Kept under the revision it was read at: a write while a search took its turns makes it stale.
    if (text.length * 4 <= MAX_CHARS) this.#keep(url, { revision, text });
    return c.body(text, 200, JSON_TYPE);
  }

  #keep(url: string, kept: Kept): void {
    this.#answers.set(url, kept);
    this.#chars += kept.text.length;
    for (const [oldest, answer] of this.#answers) {
      if (this.#answers.size <= MAX_ANSWERS && this.#chars <= MAX_CHARS) break;
      this.#forget(oldest, answer);
    }
  }

  #forget(url: string, kept: Kept): void {
    this.#answers.delete(url);
    this.#chars -= kept.text.length;
  }
}
