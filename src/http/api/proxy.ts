/**
 * Proxy mode's one route (docs/running.md#proxy-mode): every API call that the gate lets
 * through (no scenario fault answered it) goes to the live service, and its answer goes back
 * to the caller as it came: status, headers and bytes. What the live service was asked and
 * answered travels on the context (`upstream`) to the journal. The forwarding and the check
 * of the answer are the upstream's (upstream/proxy.ts); this only adapts them to HTTP.
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../context.js';
import type { Upstream } from '../../upstream/proxy.js';
import { appIdNotAHost, credentialsMissing, upstreamFailed } from '../../domain/error-messages.js';
import { limitOf, type Limits } from '../middleware/body-limit.js';
import { plainHeaders, requestHeader } from '../plain-headers.js';
import { readBodyBytes } from '../request-body.js';

/** Statuses whose answer never has a body (the Response constructor refuses one). */
const BODILESS = new Set([101, 204, 205, 304]);

const decoder = new TextDecoder();

/** The contract's error code of an error answer, when its body is the error envelope. */
function errorCodeOf(status: number, text: string): string | null {
  if (status < 400) return null;
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

async function bodyOf(c: Context<AppEnv>, limits: Limits): Promise<Uint8Array | null> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return null;
  const bytes = await readBodyBytes(c, limitOf(c, limits));
  return bytes.byteLength === 0 ? null : bytes;
}

export function proxyRoutes(upstream: Upstream, limits: Limits): Hono<AppEnv> {
  return new Hono<AppEnv>().all('/*', async (c) => {
    // The raw URL: the live service gets the path and query exactly as the caller wrote them.
    const url = new URL(c.req.url);
    const appId = c.get('appId') ?? null;
    const outcome = await upstream.forward({
      method: c.req.method,
      path: url.pathname,
      query: url.search.slice(1),
      appId,
      headers: plainHeaders(c),
      body: await bodyOf(c, limits),
    });
    if (outcome.kind === 'no-target')
      throw outcome.why === 'no-app'
        ? credentialsMissing(true, !requestHeader(c, 'apikey')?.trim())
        : appIdNotAHost(appId ?? '');
    c.set('upstream', outcome.call);
    if (outcome.kind === 'failed') throw upstreamFailed(outcome.call.url, outcome.call.error ?? 'failed');
    const text = decoder.decode(outcome.body);
    c.set('answer', { text: text === '' ? null : text, errorCode: errorCodeOf(outcome.status, text) });
    const headers = new Headers();
    for (const [name, value] of outcome.headers) headers.append(name, value);
    const body = BODILESS.has(outcome.status) || c.req.method === 'HEAD' ? null : outcome.body;
    return new Response(body, { status: outcome.status, headers });
  });
}
