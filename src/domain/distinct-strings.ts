/**
 * The distinct strings of a list (a send's targets, a campaign's user IDs), first-seen order.
 *
 * Nearly every list has no repeats, so the work is finding that out, and for 10,000 fresh
 * strings the obvious ways are slow (bench/: batch send). A Set makes V8 hash every string:
 * ~1 ms. Sorting a copy costs ~0.3 ms when the list is already close to ascending order
 * (TimSort merges a few runs) but ~2 ms for ids in random order, such as UUIDs: half of such
 * a send. So the list is first split into its ascending runs, a pass of one comparison per
 * string (~0.07 ms for 10,000): ids numbered by an app (`user-9`, `user-10`…) make a few runs
 * of very different lengths, and a run holds no repeat, so only runs against each other need
 * checking, the shorter one searched for in the longer (~0.07 ms more). Runs of like lengths
 * are sorted instead, and a list in no order goes through a table of indexes keyed by a
 * hash of each string's last few characters (~0.3 ms; see tailHash), which falls back to
 * sorting when collisions make it probe too long, so crafted ids can make it slower but
 * never quadratic.
 */

/**
 * The list itself when nothing repeats, else a copy without the repeats. The helpers below are
 * exported for their own tests: each path's fallbacks hide its mistakes from distinctStrings'
 * answer, so only a test of the path itself sees them.
 */
export function distinctStrings(values: string[], probesPerValue = PROBES_PER_VALUE): string[] {
  if (values.length < 2) return values;
  return hasRepeats(values, probesPerValue) ? [...new Set(values)] : values;
}

function hasRepeats(values: readonly string[], probesPerValue: number): boolean {
  const runs = ascendingRuns(values);
  if (runs === REPEAT_FOUND) return true;
  if (runs !== undefined) return repeatsAcrossRuns(values, runs) ?? repeatsBySorting(values);
  // Stryker disable next-line ConditionalExpression: sorting and hashing give the same answer at another speed
  if (looksAscending(values)) return repeatsBySorting(values);
  return repeatsByHashing(values, probesPerValue) ?? repeatsBySorting(values);
}

/** Runs compared with each other at most: a list in many pieces is sorted or hashed instead. */
const MAX_RUNS = 16;
/** Strings sampled at this many evenly spaced places (looksAscending, sharedSuffixLength). */
const SAMPLES = 32;
/** Probe budget of the hash table, per value: about 1.5 probes each are expected at half load. */
const PROBES_PER_VALUE = 8;

const REPEAT_FOUND = 'repeat';

/**
 * Where each strictly ascending run starts (the first is 0); REPEAT_FOUND when two
 * neighbours are equal; undefined past MAX_RUNS runs, which a list in random order reaches
 * within its first few dozen strings.
 */
export function ascendingRuns(values: readonly string[]): number[] | typeof REPEAT_FOUND | undefined {
  const starts = [0];
  let previous = values[0] as string;
  for (let i = 1; i < values.length; i++) {
    const value = values[i] as string;
    if (value <= previous) {
      if (value === previous) return REPEAT_FOUND;
      if (starts.push(i) > MAX_RUNS) return undefined;
    }
    previous = value;
  }
  return starts;
}

/**
 * Whether any run shares a string with another, each pair checked by looking up the
 * shorter run's strings in the longer one with galloping searches. Undefined when that
 * would cost more comparisons than there are strings (runs of like lengths, where sorting
 * merges them for less).
 */
export function repeatsAcrossRuns(values: readonly string[], starts: readonly number[]): boolean | undefined {
  const runs = starts.map((start, i) => ({ start, end: starts[i + 1] ?? values.length }));
  let cost = 0;
  for (let i = 0; i < runs.length; i++)
    for (let j = i + 1; j < runs.length; j++)
      cost += searchCost(runs[i]!.end - runs[i]!.start, runs[j]!.end - runs[j]!.start);
  if (cost > values.length) return undefined;
  for (let i = 0; i < runs.length; i++)
    for (let j = i + 1; j < runs.length; j++) {
      const [a, b] = [runs[i]!, runs[j]!];
      // sharesAString answers the same for either run searched in the other; the shorter one is faster.
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: same answer
      const [short, long] = a.end - a.start <= b.end - b.start ? [a, b] : [b, a];
      if (sharesAString(values, short, long)) return true;
    }
  return false;
}

/** Comparisons to search `m` ascending strings in a run of `n` by galloping: about m·2·log2(n/m + 1). */
export function searchCost(a: number, b: number): number {
  const [m, n] = a <= b ? [a, b] : [b, a];
  return m * 2 * Math.log2(n / m + 1);
}

interface Run {
  start: number;
  end: number;
}

/** Whether a string of `short` is in `long`; both strictly ascending. */
function sharesAString(values: readonly string[], short: Run, long: Run): boolean {
  let low = long.start;
  for (let i = short.start; i < short.end && low < long.end; i++) {
    const wanted = values[i] as string;
    // Gallop: probe low, low+1, low+3, low+7… until a string not below `wanted`; all before `from` are below it.
    let from = low;
    let probe = low;
    for (let step = 1; probe < long.end && (values[probe] as string) < wanted; step *= 2) {
      // `probe - 1` would only widen the binary search by strings below `wanted` (it never halts at
      // `low - 1`, since `low` holds a string below `wanted`).
      // Stryker disable next-line ArithmeticOperator: same answer, a wider binary search
      from = probe + 1;
      probe += step;
    }
    // Binary search for the first string not below `wanted` in [from, min(probe, end)).
    let high = Math.min(probe, long.end);
    while (from < high) {
      const middle = (from + high) >>> 1;
      if ((values[middle] as string) < wanted) from = middle + 1;
      else high = middle;
    }
    if (from < long.end && values[from] === wanted) return true;
    // The next wanted string is larger: the search goes on from here.
    low = from;
  }
  return false;
}

/** Every sampled neighbour in order: a random order fails this with odds of 2^-32. */
export function looksAscending(values: readonly string[]): boolean {
  const step = Math.max(1, Math.floor(values.length / SAMPLES));
  for (let i = step; i < values.length; i += step) if ((values[i] as string) < (values[i - 1] as string)) return false;
  return true;
}

function repeatsBySorting(values: readonly string[]): boolean {
  const sorted = values.slice().sort();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) return true;
  return false;
}

/** Open addressing with linear probing at most half full; undefined when the probe budget runs out. */
export function repeatsByHashing(values: readonly string[], probesPerValue: number): boolean | undefined {
  const mask = 2 ** Math.ceil(Math.log2(values.length * 2)) - 1;
  const skipped = sharedSuffixLength(values);
  // Slot holds index + 1 of the value placed there; 0 is empty.
  const slots = new Int32Array(mask + 1);
  let budget = values.length * probesPerValue;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as string;
    let slot = tailHash(value, skipped) & mask;
    for (let held = slots[slot] as number; held !== 0; held = slots[slot] as number) {
      if (values[held - 1] === value) return true;
      if (--budget < 0) return undefined;
      slot = (slot + 1) & mask;
    }
    slots[slot] = i + 1;
  }
  return false;
}

/** Characters hashed per string (see tailHash). */
const HASHED_CHARS = 8;

/**
 * 32-bit FNV-1a of a string's length and its last HASHED_CHARS UTF-16 code units before the
 * `skipped` ones at its end. Ids differ most near their end (a UUID's last characters are
 * random, a counter's last digit changes first), and hashing 8 characters instead of a
 * UUID's 36 takes 10,000 UUIDs through the table in ~0.3 ms instead of ~0.6. A list whose ids differ only
 * further from the end collides and runs out of probes: it is sorted instead.
 */
export function tailHash(value: string, skipped: number): number {
  const end = Math.max(0, value.length - skipped);
  let hash = Math.imul(0x811c9dc5 ^ value.length, 0x01000193);
  for (let i = Math.max(0, end - HASHED_CHARS); i < end; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193);
  return hash;
}

/**
 * How many characters strings sampled across the list share at their end (a domain such as
 * `@example.com`, a `-prod`): those say nothing about which string is which, so tailHash
 * hashes the characters before them.
 */
export function sharedSuffixLength(values: readonly string[]): number {
  const first = values[0] as string;
  let shared = first.length;
  const step = Math.max(1, Math.floor(values.length / SAMPLES));
  for (let i = step; i < values.length && shared > 0; i += step) {
    const value = values[i] as string;
    let same = 0;
    // Past a shorter string's start, charCodeAt(-1) is NaN, which equals no code unit: the loop stops there.
    while (same < shared && value.charCodeAt(value.length - 1 - same) === first.charCodeAt(first.length - 1 - same))
      same++;
    shared = same;
  }
  return shared;
}
