/**
 * API authentication (docs/reference.md#authentication-and-apps): `appid` + `apikey` headers, checked against the app
 * registry (strict or open), and the production Host shape `{appId}.api-{region}.…`.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppRegistry } from '../../catalog/apps.js';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../context.js';

const PRODUCTION_HOST = /^([^.]+)\.api-([a-z0-9-]+)\./i;

export function auth(apps: AppRegistry): MiddlewareHandler<AppEnv> {
  // Not async (every check is synchronous): returning next()'s promise saves one per request.
  return (c, next) => {
    const appId = c.req.header('appid')?.trim() ?? '';
    const apiKey = c.req.header('apikey')?.trim() ?? '';
    if (!appId || !apiKey) {
      const missing = [!appId && 'appid', !apiKey && 'apikey'].filter(Boolean).join(' and ');
      throw new ApiError(
        'ERR_UNAUTHORIZED',
        `Missing ${missing} header; every API request carries both "appid" and "apikey".`,
        {
          details: Object.fromEntries(
            [!appId && ['appid', 'header is required'], !apiKey && ['apikey', 'header is required']].filter(
              (e): e is [string, string] => Boolean(e),
            ),
          ),
        },
      );
    }
    const host = c.req.header('host') ?? '';
    const hostApp = PRODUCTION_HOST.exec(host)?.[1];
    if (hostApp !== undefined && hostApp !== appId) {
      throw new ApiError(
        'ERR_UNAUTHORIZED',
        `The Host names app "${hostApp}" but the appid header is "${appId}"; they must match.`,
        {
          details: { appid: `must equal the app in the Host header ("${hostApp}")` },
        },
      );
    }
    const app = apps.authenticate(appId, apiKey);
    if (!app) {
      throw new ApiError(
        'ERR_UNAUTHORIZED',
        `Unknown appid "${appId}" or wrong apikey for it (strict mode: apps come from fixtures/apps.json or ` +
          `EMULATOR_APPS).`,
      );
    }
    c.set('appId', app.appId);
    return next();
  };
}
