/**
 * Slugs derived from display names (src/domain/slug.ts): lower-case ASCII letters and digits
 * joined by single hyphens, accents and compatibility forms folded, at most 100 characters.
 */
import { describe, expect, it } from 'vitest';
import { slugFromName, slugify } from '../../src/domain/slug.js';
import { ApiError } from '../../src/domain/errors.js';

describe('slugify', () => {
  it.each([
    ['Mobile Push', 'mobile-push'],
    ['Welcome Message', 'welcome-message'],
    ['ORDER_Shipped 2', 'order-shipped-2'],
    ['Café Crème', 'cafe-creme'],
    ['Ｆｕｌｌ ｗｉｄｔｈ １', 'full-width-1'],
    ['ﬁsh', 'fish'],
    ['  --Hello,   World!--  ', 'hello-world'],
    ['-a-', 'a'],
    ['日本語', ''],
  ])('%j → %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('keeps at most 100 characters', () => {
    expect(slugify('a'.repeat(150))).toBe('a'.repeat(100));
  });
});

describe('slugFromName', () => {
  it('answers the slug, or 400 naming the field when the name has no letter or digit', () => {
    expect(slugFromName('Mobile Push', 'name')).toBe('mobile-push');
    let error: unknown;
    try {
      slugFromName('!!! ---', 'name');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'ERR_BAD_REQUEST',
      devMessage: 'Cannot derive a key from name "!!! ---": it has no letters or digits.',
      details: { name: 'must contain at least one letter or digit (the key slug is derived from it)' },
    });
  });
});
