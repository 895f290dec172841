/**
 * What the property-based index suites (indexes.ts, delivery-indexes.ts, packed-indexes.ts)
 * share: the apps and pages they draw, and the reference every index is held to, a plain
 * filter over the records.
 */
import fc from 'fast-check';
import type { Page } from '../../../src/domain/ports.js';

export const app = fc.constantFrom('app-a', 'app-b');

/** Half the time not filtered on, so single-field (exact) filters come up as often as combined ones. */
export const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

export const page = fc.record({
  offset: fc.nat(6),
  limit: fc.integer({ min: 0, max: 8 }),
  order: fc.constantFrom('asc' as const, 'desc' as const),
});

/** Checks `fn` over `numRuns` values drawn from `arb`. */
export const run = <T>(arb: fc.Arbitrary<T>, fn: (value: T) => Promise<void>, numRuns: number) =>
  fc.assert(fc.asyncProperty(arb, fn), { numRuns });

/** What a plain filter over `records` gives for `p`: its total, and its page in the page's order. */
export function expected<T>(records: readonly T[], matches: (r: T) => boolean, p: Page) {
  const all = records.filter(matches);
  const ordered = p.order === 'desc' ? [...all].reverse() : all;
  return { total: all.length, items: ordered.slice(p.offset, p.offset + p.limit) };
}
