/**
 * A test no index can answer (a substring of the journal's bodies), run over a list of
 * candidates in slices of a few milliseconds with a turn of the event loop between them, as
 * the CSV upload and the data file's writer yield: 100 such searches at once share the
 * event loop with everything else instead of holding it one after another.
 */
import type { ListResult, Page } from '../domain/ports.js';

/** Work per slice before yielding to the event loop. */
const SLICE_MS = 4;
/** How often (in candidates) the slice's clock is read. */
const CHECK_EVERY = 64;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface SliceOptions {
  /** @default 4 */
  sliceMs?: number;
  /** Stops the search early (the client went away: nobody reads the answer). */
  signal?: AbortSignal;
}

/** Counts every match among `candidates` (already in the page's order) and keeps the page's window. */
export async function pageInSlices<T>(
  candidates: readonly T[],
  matches: (candidate: T) => boolean,
  page: Page,
  { sliceMs = SLICE_MS, signal }: SliceOptions = {},
): Promise<ListResult<T>> {
  const items: T[] = [];
  const end = page.offset + page.limit;
  let total = 0;
  let sliceEnds = performance.now() + sliceMs;
  for (let k = 0; k < candidates.length; k++) {
    if (k % CHECK_EVERY === CHECK_EVERY - 1 && performance.now() >= sliceEnds) {
      await nextTurn();
      if (signal?.aborted === true) break;
      sliceEnds = performance.now() + sliceMs;
    }
    const candidate = candidates[k]!;
    if (!matches(candidate)) continue;
    if (total >= page.offset && total < end) items.push(candidate);
    total++;
  }
  return { total, items };
}
