/**
 * Compiled content rendering against the plain regex replacement it replaced: any text with
 * any placeholders (known, unknown, null-valued, spaced) renders the same.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileContent, valueAsText } from '../../src/domain/variables.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;
function reference(content: unknown, values: Record<string, unknown>): unknown {
  if (typeof content === 'string') {
    return content.replace(PLACEHOLDER, (whole, key: string) =>
      Object.hasOwn(values, key) && values[key] !== undefined && values[key] !== null
        ? valueAsText(values[key])
        : whole,
    );
  }
  if (Array.isArray(content)) return content.map((item) => reference(item, values));
  if (typeof content === 'object' && content !== null)
    return Object.fromEntries(Object.entries(content).map(([k, v]) => [k, reference(v, values)]));
  return content;
}

const keys = ['name', 'code', 'x.y', 'unknown', 'a-b'];
const pieceArb = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(...keys).map((k) => `{{${k}}}`),
  fc.constantFrom(...keys).map((k) => `{{ ${k}  }}`),
  fc.constantFrom('{{', '}}', '{{}}', '{ {name} }'),
);
const textArb = fc.array(pieceArb, { maxLength: 8 }).map((pieces) => pieces.join(''));
const contentArb = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    textArb,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('title', 'body', 'cta'), tie('node'), { maxKeys: 3 }),
  ),
})).node;
const valuesArb = fc.record(
  {
    name: fc.string({ maxLength: 5 }),
    code: fc.oneof(fc.integer(), fc.constant(null)),
    'x.y': fc.record({ url: fc.string({ maxLength: 4 }) }),
    'a-b': fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('compiled content rendering', () => {
  it('renders every content and values exactly as the regex replacement does', () => {
    fc.assert(
      fc.property(contentArb, valuesArb, (content, values) => {
        expect(compileContent(content)(values)).toEqual(reference(content, values));
      }),
      { numRuns: 500, seed: 20261123 },
    );
  });
});
