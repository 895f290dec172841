/**
 * The nesting limit for JSON the emulator stores (request bodies, CSV image/action cells).
 * JSON.parse takes any depth, but JSON.stringify overflows the stack on very deep values,
 * which would turn every later answer that serialises the record into a 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Iterative, so the check itself cannot overflow the stack; visits containers only (a 10,000-id array is one step). */
export function depthExceeds(root: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: [object, number][] = [];
  const visit = (value: unknown, depth: number) => {
    if (typeof value === 'object' && value !== null) stack.push([value, depth]);
  };
  visit(root, 1);
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > max) return true;
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) visit(value[i], depth + 1);
    else for (const key in value) visit((value as Record<string, unknown>)[key], depth + 1);
  }
  return false;
}

/** Nesting n levels deep takes at least 2n characters: shorter JSON text needs no walk. */
export const mayBeTooDeep = (text: string, max: number = MAX_JSON_DEPTH): boolean => text.length > 2 * max;
