/**
 * The last answers of the inspect lists, as the JSON bytes sent, each with the store's revision
 * when it was made. The same question (a kind and its query) asked again before the store
 * changed gets the same bytes without the query or the serialisation being made again: the
 * web inspector's every open tab,
 * and a CI fleet's clients polling one state, ask the same pages over and over, and a page of
 * 50 journal entries is ~200 KB of JSON (bench/: bursts). Any write to the store (a send, a
 * journal entry, a clear) changes the revision, so an answer is never older than the store.
 * Only answers that are a function of the stored records and the template catalog go through
 * it (the revision counts the catalog's reloads too); never one that reads the clock.
 * Kept encoded: a hit writes the bytes as they are. Kept as text, each of 100 answers of a
 * 207 KB journal page was encoded to UTF-8 again on its way to the socket (bench/: bursts).
 */
/** How many answers are kept, and their bytes in all: the oldest go first. */
const MAX_ANSWERS = 64;
const MAX_BYTES = 8 * 1024 * 1024;
/** The largest answer kept: a quarter of them all. */
const MAX_ANSWER_BYTES = MAX_BYTES / 4;

const encoder = new TextEncoder();

interface Kept {
  revision: string;
  body: Uint8Array<ArrayBuffer>;
}

export class AnswerMemo {
  /** By question, oldest first: a hit moves its answer to the end. */
  readonly #answers = new Map<string, Kept>();
  #bytes = 0;

  constructor(private readonly revision: () => string) {}

  /** `answer()` as JSON bytes, or the bytes answered to the same `key` since the store's last change. */
  async json(key: string, answer: () => unknown): Promise<Uint8Array<ArrayBuffer>> {
    const revision = this.revision();
    const kept = this.#answers.get(key);
    if (kept !== undefined) {
      this.#forget(key, kept);
      if (kept.revision === revision) {
        this.#keep(key, kept);
        return kept.body;
      }
    }
    const body = encoder.encode(JSON.stringify(await answer()));
    // Kept under the revision it was read at: a write while a search took its turns makes it stale.
    if (body.length <= MAX_ANSWER_BYTES) this.#keep(key, { revision, body });
    return body;
  }

  #keep(key: string, kept: Kept): void {
    this.#answers.set(key, kept);
    this.#bytes += kept.body.length;
    for (const [oldest, answer] of this.#answers) {
      if (this.#answers.size <= MAX_ANSWERS && this.#bytes <= MAX_BYTES) break;
      this.#forget(oldest, answer);
    }
  }

  #forget(key: string, kept: Kept): void {
    this.#answers.delete(key);
    this.#bytes -= kept.body.length;
  }
}
