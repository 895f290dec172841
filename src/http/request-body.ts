/**
 * The request body, read once and kept on the context (`requestBody`) for whoever needs it
 * next: a scenario's body matcher reads it before the route, the route after it, the journal
 * last. Hono's own body cache is not used: it is private to hono.
 */
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import { payloadTooLarge } from '../domain/error-messages.js';

const decoder = new TextDecoder();

/** The body as text (UTF-8, a leading BOM dropped, as Request.text() reads it). */
export async function readBodyText(c: Context<AppEnv>): Promise<string> {
  const kept = c.get('requestBody');
  if (kept !== undefined) return 'text' in kept ? kept.text : decoder.decode(kept.bytes);
  const text = await c.req.text();
  c.set('requestBody', { text });
  return text;
}

/**
 * The whole body as bytes, counted as it streams (a chunked body declares no length to check
 * first): 413 past `limit`. Kept on the context, where the route and the journal find it.
 */
export async function readBodyBytes(c: Context<AppEnv>, limit: number): Promise<Uint8Array> {
  const kept = c.get('requestBody');
  if (kept !== undefined) return 'bytes' in kept ? kept.bytes : new TextEncoder().encode(kept.text);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const body = c.req.raw.body;
  if (body) {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > limit) throw payloadTooLarge(limit);
      chunks.push(chunk);
    }
  }
  // Copied once into a buffer of its own (Buffer.concat may hand out a view of a shared pool).
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  c.set('requestBody', { bytes });
  return bytes;
}
