/**
 * Request size limits: JSON bodies (default 50 MB) and CSV uploads (default 100 MB)
 * answer 413 ERR_PAYLOAD_TOO_LARGE past their limit.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { payloadTooLarge } from '../../domain/error-messages.js';
import type { AppEnv } from '../context.js';
import type { EmulatorOptions } from '../../config.js';
import { fromSocket, requestHeader, type HeaderReader } from '../plain-headers.js';

export type Limits = Pick<EmulatorOptions, 'bodyLimitBytes' | 'uploadLimitBytes'>;

/** CSV uploads and imported traces (POST /__import counts an undeclared length as it reads, src/trace/lines.ts). */
const isUpload = (c: Context) => c.req.path.endsWith('/campaigns/upload') || c.req.path === '/__import';

/** The limit of this request's body: the upload's for a CSV upload, the JSON one for the rest. */
export const limitOf = (c: Context, limits: Limits) => (isUpload(c) ? limits.uploadLimitBytes : limits.bodyLimitBytes);

/**
 * What a request's headers say of its size against `limit`: 'over' (413 before a byte is read),
 * 'within', 'none' (neither Content-Length nor Transfer-Encoding: off a socket, Node's parser
 * reads no body, as HTTP/1.1 says), or 'undeclared' (a chunked body, whose length header does
 * not count: the body must be counted as it is read). hono's bodyLimit reads them the same way.
 * The one rule of the middleware below and of the server's fast path (http/send-fast-path.ts).
 */
export function declaredSize(header: HeaderReader, limit: number): 'over' | 'within' | 'none' | 'undeclared' {
  const length = header('content-length');
  if (header('transfer-encoding') !== undefined) return 'undeclared';
  if (length === undefined) return 'none';
  return Number.parseInt(length, 10) > limit ? 'over' : 'within';
}

export function limitBody(options: Limits): MiddlewareHandler<AppEnv> {
  const json = bodyLimit({
    maxSize: options.bodyLimitBytes,
    onError: () => {
      throw payloadTooLarge(options.bodyLimitBytes);
    },
  });
  return (c, next) => {
    // Decided from the headers when the length is declared, without touching c.req.raw.body:
    // that builds a full Request per call and halves send throughput (bench/).
    const limit = limitOf(c, options);
    const size = declaredSize((name) => requestHeader(c, name), limit);
    if (size === 'over') throw payloadTooLarge(limit);
    if (size === 'within') return next();
    // Every GET declares no body, and off a socket has none: hono's bodyLimit would build a
    // full Request to find that out, a fifth of the CPU of a burst of inspect reads (bench/:
    // bursts). In process, a Request may carry a body without declaring its length: hono's checks it.
    if (size === 'none' && fromSocket(c)) return next();
    // An upload without a declared length is counted as it streams (http/api/campaigns.ts):
    // hono's bodyLimit would read all of it first.
    return isUpload(c) ? next() : json(c, next);
  };
}
