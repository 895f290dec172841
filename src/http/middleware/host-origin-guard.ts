/**
 * Keeps other web pages away from the control plane (/__…, the web inspector included):
 * a Host check against DNS rebinding (a name of an attacker's that resolves to this machine)
 * and an Origin check on every write against cross-site requests (a form post needs no
 * preflight). The decisions are plain functions; the middleware only reads headers and answers.
 * The API under /api keeps accepting any Host: the production host shape is part of its fidelity.
 */
import type { MiddlewareHandler } from 'hono';
import { hostRefused, originRefused } from '../../domain/error-messages.js';
import type { EmulatorOptions } from '../../config.js';
import { isHostAllowed, originStanding, parseHost } from '../../platform/host-origin.js';
import type { AppEnv } from '../context.js';
import { requestHeader } from '../plain-headers.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A preflight's answer for a listed origin: any control method, the headers asked for, cached 10 minutes. */
const preflightHeaders = (origin: string, requested: string | undefined): Record<string, string> => ({
  'access-control-allow-origin': origin,
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
  ...(requested !== undefined && { 'access-control-allow-headers': requested }),
  'access-control-max-age': '600',
  vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
});

export function hostOriginGuard(
  options: Pick<EmulatorOptions, 'allowedHosts' | 'allowedOrigins'>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // In process (app.request) a request may carry no Host header: its URL's host is what it was sent to.
    const host = requestHeader(c, 'host') ?? new URL(c.req.url).host;
    if (!isHostAllowed(host, options.allowedHosts)) throw hostRefused(host, parseHost(host)?.name);
    const origin = requestHeader(c, 'origin');
    const standing = originStanding(origin, host, options.allowedOrigins);
    const preflight = c.req.method === 'OPTIONS' && requestHeader(c, 'access-control-request-method') !== undefined;
    if (standing === 'foreign' && (WRITES.has(c.req.method) || preflight))
      throw originRefused(origin!, preflight ? 'A preflight for' : c.req.method, c.req.path);
    if (standing === 'listed' && preflight)
      return c.body(null, 204, preflightHeaders(origin!, requestHeader(c, 'access-control-request-headers')));
    await next();
    if (standing === 'listed') {
      c.res.headers.set('access-control-allow-origin', origin!);
      c.res.headers.append('vary', 'Origin');
    }
  };
}
