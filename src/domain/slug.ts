/**
 * Slugs derived from display names (docs/fidelity.md#channels: "Mobile Push" → `mobile-push`,
 * "Welcome Message" → `welcome-message`).
 */
import { badRequest } from './errors.js';

export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}

/** The slug of `name`, or 400 naming `field` when the name has no letter or digit to build one from. */
export function slugFromName(name: string, field: string): string {
  const slug = slugify(name);
  if (!slug) {
    throw badRequest(`Cannot derive a key from name "${name}": it has no letters or digits.`, {
      [field]: 'must contain at least one letter or digit (the key slug is derived from it)',
    });
  }
  return slug;
}
