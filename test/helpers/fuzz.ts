/**
 * What every fuzzed answer must be (test/fuzz): a success, or the error envelope whose code
 * has this status; never a 5xx (no scenario is active in the fuzz, so nothing is injected).
 */
import { expect } from 'vitest';
import { ERROR_STATUS } from '../../src/domain/errors.js';
import type { CallResult } from './app.js';

/** The parts of any answer the fuzz reads: whatever came back, so each is optional. */
type AnyAnswer = { items?: unknown; error?: { code?: string } } | null | undefined;

export function expectClean<T>(res: CallResult<T>, what: string): void {
  const label = `${what} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
  const body = res.body as AnyAnswer;
  expect(res.status, label).toBeLessThan(500);
  if (res.status < 400) return;
  if (res.status === 408 && Array.isArray(body?.items)) return; // waitFor timed out: the list so far
  const code = body?.error?.code as keyof typeof ERROR_STATUS;
  expect(res.body, label).toMatchObject({
    error: { code: expect.any(String), message: expect.any(String), devMessage: expect.any(String) },
  });
  // 405 is ERR_BAD_REQUEST with an Allow header: the one status not taken from the code table.
  expect(res.status === 405 ? 'ERR_BAD_REQUEST' : ERROR_STATUS[code], label).toBe(
    res.status === 405 ? code : res.status,
  );
}

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort();

/** Call before the fuzz; the function it answers fails the test if Object.prototype changed since. */
export function prototypeWatch(): () => void {
  const clean = prototypeKeys();
  return () => {
    expect(prototypeKeys()).toEqual(clean);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  };
}
