/**
 * The one way an API answer with a body is made: it builds the Response and records what the
 * journal keeps of it on the context (`answer`), so the journal never reads a Response back.
 */
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import type { ListResult } from '../domain/ports.js';

/** What hono's c.json sends as the content type. */
const JSON_TYPE = 'application/json';

/** A JSON answer, as c.json makes it (the extra headers after the content type, as c.json merges them). */
export function answer(
  c: Context<AppEnv>,
  value: unknown,
  status: number,
  headers?: Record<string, string>,
  errorCode: string | null = null,
): Response {
  return answerText(c, JSON.stringify(value), status, { 'Content-Type': JSON_TYPE, ...headers }, errorCode);
}

/** A list, as the API answers one: the page's items as a bare JSON array, the total over all pages in X-Total-Count. */
export const answerPage = (c: Context<AppEnv>, { total, items }: ListResult<unknown>): Response =>
  answer(c, items, 200, { 'X-Total-Count': String(total) });

/** An answer whose body is already text (or none), sent with exactly these headers. */
export function answerText(
  c: Context<AppEnv>,
  text: string | null,
  status: number,
  headers: Record<string, string> | undefined,
  errorCode: string | null = null,
): Response {
  c.set('answer', { text, errorCode });
  return text === null ? c.body(null, status as 200, headers) : c.body(text, status as 200, headers);
}
