/**
 * API authentication (docs/reference.md#authentication-and-apps): `appid` + `apikey` headers,
 * checked against the app registry (strict or open), and the production Host shape
 * `{appId}.api-{region}.…` (app always; region when the app has one configured).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppRegistry } from '../../catalog/apps.js';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../context.js';
import { requestHeader, type HeaderReader } from '../plain-headers.js';

const PRODUCTION_HOST = /^([^.]+)\.api-([a-z0-9-]+)\./i;

export function auth(apps: AppRegistry): MiddlewareHandler<AppEnv> {
  // Not async (every check is synchronous): returning next()'s promise saves one per request.
  return (c, next) => {
    c.set(
      'appId',
      authenticatedApp(apps, (name) => requestHeader(c, name)),
    );
    return next();
  };
}

/** The app a request's headers authenticate as (its configured id), or the ERR_UNAUTHORIZED that says why not. */
export function authenticatedApp(apps: AppRegistry, header: HeaderReader): string {
  const appId = header('appid')?.trim() ?? '';
  const apiKey = header('apikey')?.trim() ?? '';
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
  const host = header('host') ?? '';
  const production = PRODUCTION_HOST.exec(host);
  const hostApp = production?.[1];
  if (hostApp !== undefined && hostApp !== appId) {
    throw new ApiError(
      'ERR_UNAUTHORIZED',
      `The Host names app "${hostApp}" but the appid header is "${appId}"; they must match.`,
      {
        message: 'Authentication failed: the Host header names another app than the appid header.',
        details: { appid: `must equal the app in the Host header ("${hostApp}")` },
      },
    );
  }
  const app = apps.authenticate(appId, apiKey);
  if (!app) {
    const known = apps.find(appId);
    // Never print the expected key: only that this one is not it.
    throw known
      ? new ApiError('ERR_UNAUTHORIZED', `The apikey is wrong for app "${appId}" (strict mode).`, {
          message: 'Authentication failed: wrong apikey for this app.',
          details: { apikey: `is not the key configured for app "${appId}"` },
        })
      : new ApiError(
          'ERR_UNAUTHORIZED',
          `No app "${appId}" is configured (strict mode: apps come from the fixtures' apps.json or EMULATOR_APPS).`,
          {
            message: 'Authentication failed: unknown appid.',
            details: { appid: 'is not a configured app' },
          },
        );
  }
  // Region: compared only when the app has one configured (open mode never configures one).
  const hostRegion = production?.[2];
  if (hostRegion !== undefined && app.region !== undefined && hostRegion.toLowerCase() !== app.region.toLowerCase()) {
    throw new ApiError(
      'ERR_UNAUTHORIZED',
      `The Host names region "${hostRegion}" but app "${appId}" is configured in region "${app.region}".`,
      {
        message: 'Authentication failed: the Host header names another region than the app is in.',
        details: { host: `region must be "${app.region}" for app "${appId}" (got "${hostRegion}")` },
      },
    );
  }
  return app.appId;
}
