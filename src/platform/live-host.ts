/**
 * Where the real service lives: each app has its own production host in its region. `pull`,
 * `check-fixtures` and the proxy mode's `--upstream-region` build the same base URL from it.
 */

/** Production host of the real service (used only to build the default base URL). */
const PRODUCTION_HOST = 'cometchat.io'; // production host

export function defaultBaseUrl(appId: string, region: string): string {
  return `https://${appId}.api-${region}.${PRODUCTION_HOST}/v3/business-messaging`;
}

/** True when `name` can be one label of a host name (an app id or a region in the production host). */
export const isHostLabel = (name: string): boolean => /^[A-Za-z0-9-]+$/.test(name);
