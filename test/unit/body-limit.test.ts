/**
 * limitBody decides from the headers when it can: a request off a socket that declares no
 * body has none, and hono's bodyLimit (which reads the body stream to find out, building a
 * full Request on a socket) is left to requests that may carry one.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { limitBody } from '../../src/http/middleware/body-limit.js';
import type { AppEnv } from '../../src/http/context.js';
import type { RequestSeams } from '../../src/http/request-seams.js';

const LIMITS = { bodyLimitBytes: 16, uploadLimitBytes: 64 };

function appWithLimit() {
  return new Hono<AppEnv>()
    .use('*', limitBody(LIMITS))
    .all('*', (c) => c.text('ok'))
    .onError((error, c) => c.text(String(error), 413));
}

/**
 * The platform's getter of `body`, wherever it sits on the request's prototype chain: once a
 * file of the same worker has served over a socket, @hono/node-server has put its own Request
 * subclass in the global `Request` (files share a module graph and its globals).
 */
function bodyGetter(request: Request): () => ReadableStream | null {
  for (let proto: object | null = Object.getPrototypeOf(request); proto; proto = Object.getPrototypeOf(proto)) {
    const getter = Object.getOwnPropertyDescriptor(proto, 'body')?.get;
    if (getter) return getter as () => ReadableStream | null;
  }
  throw new Error('Request has no body getter');
}

/** A request whose body stream counts how often it is asked for. */
function countingRequest(init: RequestInit & { url?: string }) {
  const request = new Request(init.url ?? 'http://emulator.test/__inspect/deliveries', init);
  let asked = 0;
  const body = bodyGetter(request);
  Object.defineProperty(request, 'body', {
    get() {
      asked++;
      return body.call(this);
    },
  });
  return { request, asked: () => asked };
}

const offSocket = (headers: Record<string, string>): RequestSeams => ({ nodeHeaders: headers });

describe('limitBody', () => {
  it('lets a GET off a socket that declares no body through without asking for its body', async () => {
    const { request, asked } = countingRequest({ method: 'GET' });
    const res = await appWithLimit().fetch(request, offSocket({ host: 'emulator.test' }));
    expect(res.status).toBe(200);
    expect(asked()).toBe(0);
  });

  it('leaves a chunked body off a socket to be counted: over the limit is refused', async () => {
    const { request, asked } = countingRequest({
      method: 'POST',
      body: 'x'.repeat(17),
      headers: { 'transfer-encoding': 'chunked' },
    });
    const res = await appWithLimit().fetch(request, offSocket({ 'transfer-encoding': 'chunked' }));
    expect(res.status).toBe(413);
    expect(asked()).toBeGreaterThan(0);
  });

  it('decides a declared length from the headers alone', async () => {
    const over = countingRequest({ method: 'POST', body: 'x'.repeat(17) });
    const res = await appWithLimit().fetch(over.request, offSocket({ 'content-length': '17' }));
    expect(res.status).toBe(413);
    expect(over.asked()).toBe(0);
  });

  it('in process, counts a body sent without a length header', async () => {
    const { request } = countingRequest({ method: 'POST', body: 'x'.repeat(17) });
    const res = await appWithLimit().fetch(request);
    expect(res.status).toBe(413);
  });
});
