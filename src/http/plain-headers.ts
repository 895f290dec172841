/**
 * Request headers without the cost of a Headers object. On a socket, @hono/node-server
 * builds a full Headers object the first time anything reads the Request's `headers`
 * (`c.req.header(name)` included): a measurable share of a send's cost
 * (docs/performance.md#where-the-speed-comes-from). Node has already parsed them into a plain
 * object, so on a socket both helpers read that; in process (app.request) the Request is a
 * platform one whose Headers already exist.
 */
import type { Context } from 'hono';
import type { NodeHeaders, RequestSeams } from './request-seams.js';

/** Reads one request header by its lower-case name, wherever the request came from. */
export type HeaderReader = (name: string) => string | undefined;

/** Repeated header lines as one value, joined with ", " as Headers.get joins them. */
export const joined = (value: string | string[]): string => (Array.isArray(value) ? value.join(', ') : value);

/** Node's parsed headers, which the transport's seams carry (request-seams.ts); none in process. */
function nodeHeaders(c: Context): NodeHeaders | undefined {
  return (c.env as RequestSeams | undefined)?.nodeHeaders;
}

/** Whether the request came off a socket (Node parsed it), not in process through app.request. */
export const fromSocket = (c: Context): boolean => nodeHeaders(c) !== undefined;

/** One header by its lower-case name, as `c.req.header(name)` gives it: repeated lines joined with ", ", except
 * the few single-valued ones (host, content-type, authorization…) of which Node keeps the first. */
export function requestHeader(c: Context, name: string): string | undefined {
  const headers = nodeHeaders(c);
  return headers ? nodeHeader(headers, name) : c.req.header(name);
}

/** requestHeader over Node's parsed headers, for code that has no hono context (http/send-fast-path.ts). */
export function nodeHeader(headers: NodeHeaders, name: string): string | undefined {
  const value = headers[name];
  return value === undefined ? undefined : joined(value);
}

/**
 * The headers to read without copying them: Node's parsed headers on a socket, a plain copy
 * in process. Whoever keeps them must copy them (the journal does).
 */
export function headersToRead(c: Context): NodeHeaders {
  return nodeHeaders(c) ?? plainHeaders(c);
}

/** All headers as a plain object (lower-case names, repeated ones joined with ", "), for the
 * records that keep them: the journal and a scenario's request facts. */
export function plainHeaders(c: Context): Record<string, string> {
  const incoming = nodeHeaders(c);
  if (incoming) return plainNodeHeaders(incoming);
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, name) => (headers[name] = value));
  return headers;
}

/** plainHeaders over Node's parsed headers. */
export function plainNodeHeaders(incoming: NodeHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value !== undefined) headers[name] = joined(value);
  }
  return headers;
}
