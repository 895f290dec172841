/**
 * Variable checks and rendering (docs/reference.md#templates): value shapes per type, required/optional,
 * undeclared keys, and placeholder replacement in every string of the content.
 */
import { describe, expect, it } from 'vitest';
import { problemWithValue, renderContent, valueAsText, variablesChecker } from '../../src/domain/variables.js';

const schema = [
  { key: 'name', type: 'string' as const, name: 'Name', required: true },
  { key: 'pic', type: 'image' as const, name: 'Pic', required: false },
  { key: 'go', type: 'action' as const, name: 'Go', required: true },
];
const GO = { type: 'web', data: 'https://x' };

describe('problemWithValue', () => {
  it.each([
    ['string', 'x', true],
    ['string', 5, false],
    ['string', '', true],
    ['image', { url: 'u', width: 1, height: 2 }, true],
    ['image', { url: 'u', width: 1, height: 2, alt: 'extra' }, true],
    ['image', { url: '', width: 1, height: 2 }, false],
    ['image', { url: 'u', width: Number.NaN, height: 2 }, false],
    ['image', { url: 'u', width: 1 }, false],
    ['image', null, false],
    ['action', { type: 'web', data: 'd' }, true],
    ['action', { type: 'custom', data: '' }, true],
    ['action', { type: 'WEB', data: 'd' }, false],
    ['action', { type: 'web' }, false],
    ['action', ['web', 'd'], false],
  ] as const)('%s accepts %j: %s', (type, value, ok) => {
    const problem = problemWithValue({ key: 'k', type, name: 'k', required: true }, value);
    expect(problem === null).toBe(ok);
  });
});

describe('problemWithValue names what is wrong', () => {
  const image = (value: unknown) => problemWithValue({ key: 'pic', type: 'image', name: 'Pic', required: true }, value);
  const shape = 'must be an image object {"url": string, "width": number, "height": number}';
  it('refuses an infinite or missing width or height (JSON 1e999 parses to Infinity), each by name', () => {
    const parsed = JSON.parse('{"url":"u","width":1,"height":1e999}') as unknown;
    expect(image(parsed)).toBe(`${shape}: "height" is missing or not a number`);
    expect(image({ url: 'u', width: Infinity, height: 1 })).toBe(`${shape}: "width" is missing or not a number`);
    expect(image({ url: 'u', width: 1, height: '2' })).toBe(`${shape}: "height" is missing or not a number`);
    expect(image({ url: 'u', width: '1', height: 2 })).toBe(`${shape}: "width" is missing or not a number`);
    expect(image({ url: 'u', width: 1, height: -Infinity })).toBe(`${shape}: "height" is missing or not a number`);
    expect(image({ url: 'u', width: 0, height: 0 })).toBeNull();
    expect(image({ url: 7, width: 1, height: 1 })).toBe(`${shape}: "url" is missing or not a string`);
    expect(image([])).toBe(shape);
  });

  it('says which part of an action or a string is wrong', () => {
    const action = (value: unknown) =>
      problemWithValue({ key: 'go', type: 'action', name: 'Go', required: true }, value);
    const actionShape = 'must be an action object {"type": "web"|"custom", "data": string}';
    expect(action('web')).toBe(actionShape);
    expect(action({ type: 7, data: 'd' })).toBe(`${actionShape}: "type" must be "web" or "custom"`);
    expect(action({ type: 'web', data: 7 })).toBe(`${actionShape}: "data" is missing or not a string`);
    expect(problemWithValue({ key: 's', type: 'string', name: 'S', required: true }, 1)).toBe(
      'must be a string (variable type "string")',
    );
  });
});

describe('variablesChecker', () => {
  const checkVariables = (values: Record<string, unknown>, prefix: string) =>
    variablesChecker(schema)(values, prefix) ?? {};

  it('finds nothing for valid values with an optional one omitted', () => {
    expect(variablesChecker(schema)({ name: 'A', go: GO }, 'template.variables')).toBe(undefined);
  });

  it("names the batch member between the prefix and the variable's key", () => {
    const details = variablesChecker(schema)({ go: GO, extra: 1 }, 'template.variables', 'user-1');
    expect(details).toEqual({
      'template.variables.user-1.name': 'is required by the template (type "string")',
      'template.variables.user-1.extra': "is not declared in the template's variableSchema",
    });
  });

  it('lists every problem keyed by prefix.key', () => {
    const details = checkVariables({ pic: 'not-an-image', extra: 1 }, 'template.variables');
    expect(Object.keys(details).sort()).toEqual([
      'template.variables.extra',
      'template.variables.go',
      'template.variables.name',
      'template.variables.pic',
    ]);
  });

  it('treats null like a missing value', () => {
    expect(Object.keys(checkVariables({ name: null, go: GO, pic: null }, 'v'))).toEqual(['v.name']);
  });

  it('counts own keys only: an inherited enumerable one is not an undeclared variable', () => {
    const values = Object.assign(Object.create({ inherited: 1 }) as Record<string, unknown>, { name: 'A', go: GO });
    expect(checkVariables(values, 'v')).toEqual({});
  });
});

describe('renderContent', () => {
  it('replaces placeholders in every nested string, image → url, action → data', () => {
    const content = {
      in_app: { title: 'Hi {{name}}', parts: ['{{ pic }}', { deep: '{{go}}!' }], n: 3, flag: true, none: null },
    };
    expect(renderContent(content, { name: 'Ada', pic: { url: 'https://i', width: 1, height: 1 }, go: GO })).toEqual({
      in_app: { title: 'Hi Ada', parts: ['https://i', { deep: 'https://x!' }], n: 3, flag: true, none: null },
    });
  });

  it('leaves unresolved placeholders literally', () => {
    expect(renderContent('{{a}} and {{b}}', { a: 'A' })).toBe('A and {{b}}');
    expect(renderContent('{{toString}} {{constructor}}', {})).toBe('{{toString}} {{constructor}}');
  });

  it('does not read placeholders out of replaced values', () => {
    expect(renderContent('{{a}}', { a: '{{b}}', b: 'B' })).toBe('{{b}}');
  });

  it('leaves a placeholder of a null value literally, spaces and all', () => {
    expect(renderContent('{{ a }}|{{b}}|{{c}}', { a: null, b: undefined, c: 0 })).toBe('{{ a }}|{{b}}|0');
  });

  it('valueAsText writes other values as text', () => {
    expect(valueAsText(5)).toBe('5');
    expect(valueAsText(Number.NaN)).toBe('NaN');
    expect(valueAsText(false)).toBe('false');
    expect(valueAsText({ x: 1 })).toBe('{"x":1}');
    expect(valueAsText({ url: 7, data: 'd' })).toBe('d');
    expect(valueAsText({ url: 'u', data: 'd' })).toBe('u');
    expect(valueAsText(['a'])).toBe('["a"]');
    expect(valueAsText(null)).toBe('null');
  });
});
