/**
 * depthExceeds against a plain recursive depth count, and on nesting far deeper than the
 * stack would allow a walk that did not stop at the limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, depthExceeds, mayBeTooDeep } from '../../src/domain/json-depth.js';

/** Containers on the deepest path (a scalar is 0). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('depthExceeds', () => {
  it('is true exactly when the value nests deeper than the limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, max) => {
        expect(depthExceeds(value, max)).toBe(depthOf(value) > max);
      }),
      { seed: 20261125, numRuns: 1000 },
    );
  });

  it('answers for 1,000,000 levels without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`) as unknown;
    expect(depthExceeds(deep)).toBe(true);
    const deepObject = JSON.parse(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`) as unknown;
    expect(depthExceeds(deepObject)).toBe(true);
  });
});

describe('mayBeTooDeep', () => {
  it('says no only for text too short to nest past the limit, the shortest too-deep text included', () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(mayBeTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(mayBeTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(depthExceeds(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(mayBeTooDeep('x'.repeat(9), 4)).toBe(true);
    expect(mayBeTooDeep('x'.repeat(8), 4)).toBe(false);
  });

  it('depthExceeds: a scalar or null is never too deep', () => {
    for (const value of [null, 1, 'x', true]) expect(depthExceeds(value, 0)).toBe(false);
    expect(depthExceeds({}, 0)).toBe(true);
  });
});
