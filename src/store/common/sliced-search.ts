/**
 * A test no index can answer (a substring of the journal's bodies), run over a list of
 * candidates in slices of a few milliseconds, each on a turn of the event loop the store's
 * LoopTurns hands out (platform/loop-turns.ts): 100 such searches at once take one slice per turn
 * between them, and every request that comes meanwhile is answered between two slices.
 */
import type { ListResult, Page } from '../../domain/ports.js';
import { LoopTurns } from '../../platform/loop-turns.js';

/** Work per slice before yielding to the event loop. */
const SLICE_MS = 4;
/** How often (in candidates) the slice's clock is read. */
const CHECK_EVERY = 64;

export interface SliceOptions {
  /** @default 4 */
  sliceMs?: number;
  /** Stops the search early (the client went away: nobody reads the answer). */
  signal?: AbortSignal;
  /** Whose turns the slices take (the store's: one slice per turn however many searches run). */
  turns?: LoopTurns;
}

/** Counts every match among `candidates` (already in the page's order) and keeps the page's window. */
export async function pageInSlices<T>(
  candidates: readonly T[],
  matches: (candidate: T) => boolean,
  page: Page,
  { sliceMs = SLICE_MS, signal, turns = new LoopTurns() }: SliceOptions = {},
): Promise<ListResult<T>> {
  const items: T[] = [];
  const end = page.offset + page.limit;
  let total = 0;
  let sliceEnds = performance.now() + sliceMs;
  for (let k = 0; k < candidates.length; k++) {
    if (k % CHECK_EVERY === CHECK_EVERY - 1 && performance.now() >= sliceEnds) {
      await turns.next();
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
