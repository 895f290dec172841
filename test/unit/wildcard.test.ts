/**
 * Scenario wildcards (src/scenario-engine/wildcard.ts): the same answers as the regular
 * expressions they replace, for any pattern, and no backtracking or size limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { glob, pathPattern } from '../../src/scenario-engine/wildcard.js';

const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
/** What a glob meant as a RegExp (`[^]` rather than `.`: `*` crosses line breaks too). */
const globRegExp = (pattern: string) => new RegExp(`^${pattern.split('*').map(escape).join('[^]*')}$`);
const pathRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.split('*').map(escape).join('[^]*')))
      .join('/')}$`,
  );

const SEED = 20261123;
const chars = (alphabet: string[], maxLength: number) =>
  fc.array(fc.constantFrom(...alphabet), { maxLength }).map((a) => a.join(''));

describe('glob', () => {
  it('answers as the RegExp would, for any pattern of a, b, /, . and * and any value', () => {
    fc.assert(
      fc.property(chars(['a', 'b', '/', '.', '*'], 8), chars(['a', 'b', '/', '.', '\n'], 10), (pattern, value) => {
        expect(glob(pattern)(value)).toBe(globRegExp(pattern).test(value));
      }),
      { numRuns: 5000, seed: SEED },
    );
  });

  it('matches literally, at both ends, and across slashes and line breaks', () => {
    expect(glob('user-9*')('user-91')).toBe(true);
    expect(glob('user-9*')('auser-91')).toBe(false);
    expect(glob('*-eu')('shop-eu')).toBe(true);
    expect(glob('*')('')).toBe(true);
    expect(glob('a*b*c')('a/\nb/c')).toBe(true);
    expect(glob('a*b*c')('acb')).toBe(false);
    expect(glob('a.c')('abc')).toBe(false);
    // The last text must fit after the match before it, not overlap it.
    expect(glob('*ab*b')('xab')).toBe(false);
    expect(glob('*ab*b')('xabb')).toBe(true);
    expect(glob('a*ab')('ab')).toBe(false);
  });

  it('takes a pattern that backtracks as a RegExp in linear time, and one too large for a RegExp', () => {
    // As a RegExp, the first took over two minutes here; a matcher that backtracks would
    // outlast the test's timeout on either.
    expect(glob(`*${'a*'.repeat(8)}c`)('a'.repeat(60))).toBe(false);
    expect(glob(`*${'a*'.repeat(200)}c`)('a'.repeat(10_000))).toBe(false);
    const long = 'x'.repeat(100_000);
    expect(() => globRegExp(long).test('x')).toThrow(/too large/);
    expect(glob(long)(long)).toBe(true);
    expect(glob(`${long}*`)('x')).toBe(false);
  });
});

describe('pathPattern', () => {
  it('answers as the RegExp would, with :param segments, globs and slashes', () => {
    const segment = fc.oneof(chars(['a', 'b', '*'], 4), fc.constant(':id'));
    const pattern = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(pattern, chars(['a', 'b', '/'], 10), (p, value) => {
        expect(pathPattern(p)(value)).toBe(pathRegExp(p).test(value));
      }),
      { numRuns: 5000, seed: SEED },
    );
  });

  it('takes :param as one non-empty segment and * across segments', () => {
    expect(pathPattern('/api/campaigns/:id/send')('/api/campaigns/abc/send')).toBe(true);
    expect(pathPattern('/api/campaigns/:id/send')('/api/campaigns/send')).toBe(false);
    expect(pathPattern('/api/campaigns/:id/send')('/api/campaigns/a/b/send')).toBe(false);
    expect(pathPattern('/api/*')('/api/campaigns/x')).toBe(true);
    expect(pathPattern('/api/:id')('/api/')).toBe(false);
  });
});
