/**
 * JSON nesting limit (64 levels): deeper bodies are refused before they reach the store,
 * where serialising them later (inspect, SSE, data file) would overflow the stack.
 */
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, send } from '../helpers/app.js';

/** A send body nested `levels` deep in total (the body object is level 1), inside a variable. */
function bodyNested(levels: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < levels - 3; i++) value = [value]; // body, template, variables: 3 levels; then the arrays
  return { template: { key: 'greeting', variables: { name: value } }, targets: ['u1'], mode: 'realtime' };
}

describe('JSON nesting limit', () => {
  it('accepts 64 levels (the variable is then refused for its type, not its depth)', async () => {
    const res = await send(makeTestApp(), bodyNested(64));
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
  });

  it('answers 400 ERR_BAD_REQUEST naming the limit at 65 levels', async () => {
    const res = await send(makeTestApp(), bodyNested(65));
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(JSON.stringify(res.body)).toContain('nested more than 64 levels');
  });

  it('refuses a deep body that is short too', async () => {
    const res = await send(makeTestApp(), JSON.parse(`{"a":${'['.repeat(70)}${']'.repeat(70)}}`));
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(JSON.stringify(res.body)).toContain('nested more than 64 levels');
  });
});
