/**
 * Where proxy mode forwards a call: one base URL (`--upstream`), or each app's own production
 * host in a region (`--upstream-region`, as `pull --region` builds it). The API path is kept
 * as it is after the base path, so `/api/…` and `/v3/business-messaging/api/…` both land on
 * the live service's `{base}/api/…`.
 */
import { defaultBaseUrl, isHostLabel } from '../platform/live-host.js';

/** Why no URL could be built for a call. */
export type NoTarget = 'no-app' | 'app-not-a-host';

export interface UpstreamTarget {
  /** The base URL as /__health shows it (`https://{appId}.api-eu.…` in the per-app form). */
  readonly shown: string;
  /** The URL of one call: `apiPath` starts at `/api`, `query` is raw, without its `?`. */
  urlFor(appId: string | null, apiPath: string, query: string): string | NoTarget;
}

const trimmed = (base: string) => base.replace(/\/+$/, '');

export function upstreamTarget(option: { upstream?: string; upstreamRegion?: string }): UpstreamTarget | null {
  const withQuery = (base: string, apiPath: string, query: string) =>
    `${trimmed(base)}${apiPath}${query === '' ? '' : `?${query}`}`;
  const { upstream, upstreamRegion } = option;
  if (upstream !== undefined)
    return { shown: trimmed(upstream), urlFor: (_, path, query) => withQuery(upstream, path, query) };
  if (upstreamRegion === undefined) return null;
  return {
    shown: defaultBaseUrl('{appId}', upstreamRegion),
    urlFor(appId, path, query) {
      if (appId === null) return 'no-app';
      if (!isHostLabel(appId)) return 'app-not-a-host';
      return withQuery(defaultBaseUrl(appId, upstreamRegion), path, query);
    },
  };
}

/** The path the live service is asked for: the request's, without the production base path before `/api`. */
export const apiPathOf = (rawPath: string): string => rawPath.replace(/^\/v3\/business-messaging(?=\/api(\/|$))/, '');
