/**
 * Outermost API middleware: records every API request (refused ones too) in the journal
 * through the journal step (journal-step.ts), the one the send fast path uses too: status,
 * error code, app, applied scenario rules, duration, query, headers and both bodies.
 *
 * Bodies are taken from what this code kept on the context anyway: the request body as it
 * was read (request-body.ts), the answer as `answer` made it (answer.ts). The hot send path
 * pays for no clone and no second read (bench/).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { NOT_KEPT, type BodyRead } from '../journal-bodies.js';
import type { Bodies, OpenJournalStep } from '../journal-step.js';
import { headersToRead, requestHeader } from '../plain-headers.js';

/** Each body is kept up to this many bytes: a larger one nobody read is not read for the journal. */
const JOURNAL_BODY_LIMIT = 64 * 1024;

/**
 * The request body as the journal keeps it: what a route, a scenario matcher or the upload
 * already read (request-body.ts). A body nobody read (the request was refused first) is read
 * here only when it declares a length within the cap; a larger or chunked one is marked as
 * not kept rather than read. Synchronous in the common case (a JSON route).
 */
function requestBody(c: Context<AppEnv>): BodyRead | Promise<BodyRead> {
  return c.get('requestBody') ?? unreadRequestBody(c);
}

async function unreadRequestBody(c: Context<AppEnv>): Promise<BodyRead> {
  try {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return null;
    const length = requestHeader(c, 'content-length');
    if (length !== undefined) {
      const size = Number(length);
      if (!(size > 0)) return null;
      return size > JOURNAL_BODY_LIMIT ? NOT_KEPT : { text: await c.req.text() };
    }
    if (requestHeader(c, 'transfer-encoding') !== undefined) return NOT_KEPT;
    // Neither header: over HTTP/1.1 that is no body; in process (app.request) the body is a plain stream.
    if (c.req.raw.body === null) return null;
    return { bytes: new Uint8Array(await c.req.arrayBuffer()) };
  } catch {
    return NOT_KEPT;
  }
}

/**
 * The response body as the journal keeps it: what `answer` recorded (every API answer with a
 * body goes through it). Anything else (a Response made elsewhere) is cloned and read.
 */
function responseBody(c: Context<AppEnv>): Bodies['response'] | Promise<Bodies['response']> {
  const given = c.get('answer');
  if (given !== undefined) return given.text;
  const res = c.res;
  if (res.body === null) return null;
  return res
    .clone()
    .text()
    .catch(() => NOT_KEPT);
}

/** A promise only when a body is not already at hand (one the route never read, an in-process Response). */
function bodiesOf(c: Context<AppEnv>): Bodies | Promise<Bodies> {
  const request = requestBody(c);
  return request instanceof Promise ? request.then((read) => withResponse(c, read)) : withResponse(c, request);
}

function withResponse(c: Context<AppEnv>, request: BodyRead): Bodies | Promise<Bodies> {
  const response = responseBody(c);
  return response instanceof Promise ? response.then((text) => ({ request, response: text })) : { request, response };
}

function queryOf(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return '';
  const hash = url.indexOf('#', at);
  return url.slice(at + 1, hash < 0 ? undefined : hash);
}

export function journal(openStep: OpenJournalStep): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const step = openStep({
      method: c.req.method,
      path: c.req.path,
      query: queryOf(c.req.url),
      headers: headersToRead(c),
    });
    try {
      await next();
    } finally {
      // c.get, not c.var: hono builds a fresh object on every c.var read (hot path, see bench/).
      const scope = c.get('scenarioScope');
      try {
        const recorded = step.answered(
          {
            appId: c.get('appId') ?? requestHeader(c, 'appid') ?? null,
            status: c.res.status,
            errorCode: c.get('answer')?.errorCode ?? null,
            rules: scope?.appliedRules(),
            laterRules: scope?.followRules,
            upstream: c.get('upstream'),
          },
          () => bodiesOf(c),
        );
        // Awaited only when a body had to be read: the common answer is recorded in this turn.
        if (recorded !== undefined) await recorded;
      } catch (thrown) {
        const failure = step.failed(thrown);
        c.res = new Response(failure.body, { status: failure.status, headers: failure.headers });
      }
    }
  };
}
