/**
 * A request's headers as a plain object (lower-case names, repeated headers joined with
 * ", "), for the records that keep them: the journal and a scenario's request facts.
 *
 * On a socket they come from Node's own parsed headers: reading the Request's `headers`
 * instead (`forEach`, `Object.fromEntries`) makes @hono/node-server build a full Headers
 * object per request, a measurable share of a send's cost (CONTRIBUTING.md#where-the-speed-comes-from).
 */
import type { Context } from 'hono';

type NodeHeaders = Record<string, string | string[] | undefined>;

export function plainHeaders(c: Context): Record<string, string> {
  const incoming = (c.env as { incoming?: { headers?: NodeHeaders } } | undefined)?.incoming;
  const headers: Record<string, string> = {};
  if (!incoming?.headers) {
    // In process (app.request): a platform Request, whose Headers already exist.
    c.req.raw.headers.forEach((value, name) => (headers[name] = value));
    return headers;
  }
  for (const name in incoming.headers) {
    const value = incoming.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
