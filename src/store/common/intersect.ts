/**
 * The records filed under every one of several keys: the positions common to ascending
 * lists, found by walking the shortest and galloping through the others (a step or two per
 * position when the lists are alike, a binary search's few when the others are much longer).
 * A filter on two fields then reads the two indexes, not each record of the shorter one.
 */

/** An ascending list read by index (an index's positions for one key). */
export interface AscendingList {
  readonly count: number;
  at(i: number): number;
}

/**
 * Indexes into `lists[0]` of the values every list holds, ascending. `lists[0]` should be the
 * shortest. Values are compared as (value - base) mod 2^32: positions counted from the oldest
 * live one, so that sequence numbers kept mod 2^32 compare right when they wrap.
 */
export function intersect(lists: readonly AscendingList[], base: number): Int32Array {
  const [first, ...others] = lists;
  const found = new Int32Array(first!.count);
  const cursors = others.map(() => 0);
  let count = 0;
  outer: for (let i = 0; i < first!.count; i++) {
    const wanted = (first!.at(i) - base) >>> 0;
    for (let l = 0; l < others.length; l++) {
      const list = others[l]!;
      const at = seek(list, cursors[l]!, wanted, base);
      cursors[l] = at;
      if (at >= list.count) break outer; // this list has nothing at or after `wanted`: no more matches
      if ((list.at(at) - base) >>> 0 !== wanted) continue outer;
    }
    found[count++] = i;
  }
  return found.subarray(0, count);
}

/**
 * The first index at or after `from` whose value is at or after `wanted` (both compared as
 * (value - base) mod 2^32): galloping, then binary search.
 */
export function seek(list: AscendingList, from: number, wanted: number, base: number): number {
  if (from >= list.count || (list.at(from) - base) >>> 0 >= wanted) return from;
  let low = from;
  let step = 1;
  let high = from + step;
  while (high < list.count && (list.at(high) - base) >>> 0 < wanted) {
    low = high;
    step *= 2;
    high = low + step;
  }
  high = Math.min(high, list.count);
  // at(low) is before `wanted`; the answer is in (low, high].
  while (low + 1 < high) {
    const mid = (low + high) >> 1;
    if ((list.at(mid) - base) >>> 0 < wanted) low = mid;
    else high = mid;
  }
  return high;
}
