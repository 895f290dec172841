/**
 * Optional protection of the control plane: with an admin token configured, every
 * request under /__ needs `authorization: Bearer <token>`, except the web inspector's page and
 * assets (/__/…): the page asks for the token and sends it on each call it makes.
 */
import type { MiddlewareHandler } from 'hono';
import { adminAuthFailed } from '../../domain/error-messages.js';
import type { AppEnv } from '../context.js';
import type { EmulatorOptions } from '../../config.js';
import { requestHeader } from '../plain-headers.js';

/** The token of `Bearer <token>`: the scheme in any case (RFC 9110 §11.1), spaces around the token ignored. */
function bearerToken(header: string): string | null {
  const match = /^bearer\s+(.*)$/i.exec(header.trim());
  return match ? match[1]!.trim() : null;
}

export function adminAuth(options: Pick<EmulatorOptions, 'adminToken'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = options.adminToken;
    const inspectorPage = c.req.path === '/__' || c.req.path.startsWith('/__/');
    if (token !== undefined && !inspectorPage) {
      const given = requestHeader(c, 'authorization') ?? '';
      if (bearerToken(given) !== token) {
        throw adminAuthFailed(given);
      }
    }
    await next();
  };
}
