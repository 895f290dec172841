/**
 * The nesting limit for JSON the emulator stores (request bodies, CSV image/action cells).
 * JSON.parse takes any depth, but JSON.stringify overflows the stack on very deep values,
 * which would turn every later answer that serialises the record into a 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Why a fixture or scenario (a file, or its option) is refused when depthExceeds says so. */
export const TOO_DEEP_TO_LOAD = `nested more than ${MAX_JSON_DEPTH} levels deep (the limit for request bodies too)`;

/**
 * Recursive, but it stops one level past `max`, so the check itself cannot overflow the
 * stack; visits containers only (a 10,000-id array is one step). A fifth faster than a
 * walk with an explicit stack on a body of 10,000 objects (a batch with variables per target).
 */
export function depthExceeds(root: unknown, max: number = MAX_JSON_DEPTH): boolean {
  return typeof root === 'object' && root !== null && containerExceeds(root, 1, max);
}

function containerExceeds(container: object, depth: number, max: number): boolean {
  if (depth > max) return true;
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) {
      const value: unknown = container[i];
      if (typeof value === 'object' && value !== null && containerExceeds(value, depth + 1, max)) return true;
    }
    return false;
  }
  for (const key in container) {
    const value: unknown = (container as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null && containerExceeds(value, depth + 1, max)) return true;
  }
  return false;
}

/** Nesting n levels deep takes at least 2n characters: shorter JSON text needs no walk. */
export const mayBeTooDeep = (text: string, max: number = MAX_JSON_DEPTH): boolean => text.length > 2 * max;
