/**
 * Shared helpers of the CSV tests: a template with every variable type, and shortcuts that
 * parse a string or return the file-level ApiError it raises.
 */
import { expect } from 'vitest';
import { parseRecipientsCsv, type ParsedRecipientsCsv } from '../../src/domain/csv.js';
import { ApiError } from '../../src/domain/errors.js';
import type { Template, VariableSchemaEntry } from '../../src/schemas/records.js';

export function makeTemplate(variableSchema: VariableSchemaEntry[], key = 'csv-test'): Template {
  return {
    id: 'c'.repeat(24),
    key,
    name: key,
    status: 'approved',
    channels: ['in_app'],
    variableSchema,
    content: { in_app: { title: 'Hi {{customerName}}' } },
    category: null,
    appId: null,
    source: 'fixture',
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
  };
}

/** customerName (string, required), note (string, optional), banner (image, optional), cta (action, required). */
export const ORDER = makeTemplate([
  { key: 'customerName', type: 'string', name: 'Customer name', required: true },
  { key: 'note', type: 'string', name: 'Note', required: false },
  { key: 'banner', type: 'image', name: 'Banner', required: false },
  { key: 'cta', type: 'action', name: 'Button', required: true },
]);

/** Only optional string variables: any user_id column file fits. */
export const LOOSE = makeTemplate([
  { key: 'a', type: 'string', name: 'A', required: false },
  { key: 'b', type: 'string', name: 'B', required: false },
]);

export const NO_VARIABLES = makeTemplate([]);

export const CTA_CELL = '"{""type"":""web"",""data"":""https://shop.example/t""}"';
export const BANNER_CELL = '"{""url"":""https://cdn.example/b.png"",""width"":100,""height"":50}"';

export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

export function parse(
  text: string | Uint8Array,
  template: Template = ORDER,
  options?: { maxRows?: number },
): ParsedRecipientsCsv {
  return parseRecipientsCsv(typeof text === 'string' ? bytes(text) : text, template, options);
}

/** The ApiError a file-level problem raises (fails the test when parsing succeeds). */
export function fileError(
  text: string | Uint8Array,
  template: Template = ORDER,
  options?: { maxRows?: number },
): ApiError {
  try {
    parse(text, template, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.code).toBe('ERR_BAD_REQUEST');
    expect(apiError.status).toBe(400);
    return apiError;
  }
  throw new Error('expected a file-level ERR_BAD_REQUEST, but the file was accepted');
}
