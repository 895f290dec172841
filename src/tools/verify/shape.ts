/**
 * The shape of a JSON answer, for `verify`: at each position the JSON kinds seen there, an
 * object's field names and a list's items as the union of every item's shape (a field any
 * item has is a field of the list's items). Comparing two shapes names each field one side
 * lacks and each position whose kinds differ, so a vendor's new field or changed type is
 * found without comparing the values, which differ between any two accounts.
 */

export type JsonKind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export interface Shape {
  kinds: Set<JsonKind>;
  fields: Map<string, Shape>;
  /** The union of every item's shape; null when no list seen here had an item. */
  items: Shape | null;
}

export function kindOfJson(value: unknown): JsonKind {
  // undefined: a field an object lacks, read as JSON reads it.
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  const kind = typeof value;
  if (kind === 'boolean' || kind === 'number' || kind === 'string') return kind;
  return 'object';
}

const emptyShape = (): Shape => ({ kinds: new Set(), fields: new Map(), items: null });

/** `into` widened by `value`'s shape (mutates and returns `into`). */
function addValue(into: Shape, value: unknown): Shape {
  const kind = kindOfJson(value);
  into.kinds.add(kind);
  if (kind === 'object') {
    for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
      into.fields.set(name, addValue(into.fields.get(name) ?? emptyShape(), field));
    }
  } else if (kind === 'array') {
    for (const item of value as unknown[]) into.items = addValue(into.items ?? emptyShape(), item);
  }
  return into;
}

/** The shape of a parsed JSON value. */
export function shapeOf(value: unknown): Shape {
  return addValue(emptyShape(), value);
}

const kindsText = (kinds: Set<JsonKind>) => [...kinds].sort().join(' or ');
const child = (path: string, name: string) => (path ? `${path}.${name}` : name);

/**
 * Each way `live` and `emulator` differ, one line each, naming the position by `path`
 * (`templates[].x_new: only live`, `template.name: number live, string emulator`). Items are
 * compared only when both sides saw some: an empty list says nothing about its items. A path
 * `ignored` says yes to is not compared, nor anything under it.
 */
export function shapeDifferences(
  live: Shape,
  emulator: Shape,
  path: string,
  ignored: (path: string) => boolean = () => false,
): string[] {
  if (ignored(path)) return [];
  const differences: string[] = [];
  if (kindsText(live.kinds) !== kindsText(emulator.kinds)) {
    differences.push(`${path || '(body)'}: ${kindsText(live.kinds)} live, ${kindsText(emulator.kinds)} emulator`);
  }
  const names = [...new Set([...live.fields.keys(), ...emulator.fields.keys()])].sort();
  for (const name of names) {
    const mine = live.fields.get(name);
    const theirs = emulator.fields.get(name);
    if (ignored(child(path, name))) continue;
    if (!theirs) differences.push(`${child(path, name)}: only live`);
    else if (!mine) differences.push(`${child(path, name)}: only emulator`);
    else differences.push(...shapeDifferences(mine, theirs, child(path, name), ignored));
  }
  if (live.items && emulator.items)
    differences.push(...shapeDifferences(live.items, emulator.items, `${path}[]`, ignored));
  return differences;
}
