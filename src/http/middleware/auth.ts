/**
 * API authentication (docs/reference.md#authentication-and-apps): `appid` + `apikey` headers,
 * checked against the app registry (strict or open), and the production Host shape
 * `{appId}.api-{region}.…` (app always; region when the app has one configured).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppRegistry } from '../../catalog/apps.js';
import {
  credentialsMissing,
  hostAppMismatch,
  hostRegionMismatch,
  unknownApp,
  wrongApiKey,
} from '../../domain/error-messages.js';
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

/**
 * Proxy mode's auth: the live service judges the credentials, so nothing is refused here.
 * The app is only read from `appid` (for per-app scenarios, the journal and, with
 * `--upstream-region`, the live host); open mode remembers it, as a first call would.
 */
export function appFromHeader(apps: AppRegistry): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const appId = requestHeader(c, 'appid')?.trim();
    if (appId) {
      c.set('appId', appId);
      apps.remember(appId);
    }
    return next();
  };
}

/** The app a request's headers authenticate as (its configured id), or the ERR_UNAUTHORIZED that says why not. */
export function authenticatedApp(apps: AppRegistry, header: HeaderReader): string {
  const appId = header('appid')?.trim() ?? '';
  const apiKey = header('apikey')?.trim() ?? '';
  if (!appId || !apiKey) throw credentialsMissing(!appId, !apiKey);
  const host = header('host') ?? '';
  const production = PRODUCTION_HOST.exec(host);
  const hostApp = production?.[1];
  if (hostApp !== undefined && hostApp !== appId) throw hostAppMismatch(hostApp, appId);
  const app = apps.authenticate(appId, apiKey);
  if (!app) throw apps.find(appId) ? wrongApiKey(appId) : unknownApp(appId);
  // Region: compared only when the app has one configured (open mode never configures one).
  const hostRegion = production?.[2];
  if (hostRegion !== undefined && app.region !== undefined && hostRegion.toLowerCase() !== app.region.toLowerCase()) {
    throw hostRegionMismatch(hostRegion, appId, app.region);
  }
  return app.appId;
}
