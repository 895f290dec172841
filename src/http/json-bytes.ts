/** A read facade's answer (JSON already encoded, src/reads/) as the response, with the type c.json() gives. */
import type { Context } from 'hono';

const JSON_TYPE = { 'content-type': 'application/json' } as const;

export const jsonBytes = (c: Context, body: Uint8Array<ArrayBuffer>): Response => c.body(body, 200, JSON_TYPE);
