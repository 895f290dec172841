/**
 * A search no index answers (bodyContains), run in slices that yield to the event loop:
 * the same total and page as one pass, whatever the slices, and other work runs between them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pageInSlices } from '../../src/store/common/sliced-search.js';

describe('pageInSlices', () => {
  it('answers as one pass over the candidates would, yielding between slices', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(9), { maxLength: 300 }),
        fc.nat(9),
        fc.record({ offset: fc.nat(50), limit: fc.nat(50) }),
        async (values, pick, page) => {
          const matches = (v: number) => v <= pick;
          const all = values.filter(matches);
          // A slice of 0 ms yields at every check (each 64 candidates): other work gets turns in between.
          let turns = 0;
          let searching = true;
          const tick = () => {
            turns++;
            if (searching) setImmediate(tick);
          };
          setImmediate(tick);
          const got = await pageInSlices(values, matches, page, { sliceMs: 0 });
          searching = false;
          expect(got).toEqual({ total: all.length, items: all.slice(page.offset, page.offset + page.limit) });
          expect(turns > 0).toBe(values.length >= 64);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('stops at the next slice once its signal is aborted', async () => {
    const controller = new AbortController();
    let tested = 0;
    const search = pageInSlices(
      Array.from({ length: 10_000 }, (_, i) => i),
      () => (tested++, true),
      { offset: 0, limit: 10 },
      { sliceMs: 0, signal: controller.signal },
    );
    controller.abort();
    await search;
    expect(tested).toBeLessThan(10_000);
  });
});
