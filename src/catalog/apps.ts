/**
 * Which apps may call the API (docs/reference.md#authentication-and-apps).
 * Strict mode: a configured list of appId/apiKey pairs (and
 * optionally each app's region). Open mode (nothing configured): any non-empty pair is
 * accepted and the app is remembered on first use. `replace` swaps the configured list
 * (apps.json edited while running).
 */
import { z } from 'zod';

export const AppConfigSchema = z.object({
  appId: z.string().min(1),
  apiKey: z.string().min(1),
  /** When given, a production-shaped Host (`{appId}.api-{region}.…`) must name this region. */
  region: z
    .string()
    .regex(/^[a-z0-9-]+$/i, 'must be a region name such as "us" or "eu" (letters, digits, "-")')
    .optional(),
});
export const AppsFileSchema = z.array(AppConfigSchema);
export type AppConfig = z.infer<typeof AppConfigSchema>;

export interface AppRegistry {
  readonly mode: 'open' | 'strict';
  /** The app for these credentials, or null when they are missing or wrong. */
  authenticate(appId: string, apiKey: string): AppConfig | null;
  /** The configured (strict) or remembered (open) app with this id, whatever its key. */
  find(appId: string): AppConfig | undefined;
  list(): AppConfig[];
  /** New configured apps (apps.json reloaded): strict when any, open (starting empty) when none. */
  replace(configured: AppConfig[]): void;
  /** Forgets the apps open mode added on first use (one of them, when named); configured apps stay. */
  reset(appId?: string): void;
  /** Open mode: knows this app as if it had called (its records came back from a data file). Strict: nothing. */
  remember(appId: string): void;
}

export function createAppRegistry(configured: AppConfig[]): AppRegistry {
  let apps = new Map(configured.map((a) => [a.appId, a]));
  let mode: AppRegistry['mode'] = configured.length > 0 ? 'strict' : 'open';
  return {
    get mode() {
      return mode;
    },
    authenticate(appId, apiKey) {
      if (!appId || !apiKey) return null;
      const known = apps.get(appId);
      if (known) return mode === 'open' || known.apiKey === apiKey ? known : null;
      if (mode === 'strict') return null;
      const created: AppConfig = { appId, apiKey };
      apps.set(appId, created);
      return created;
    },
    find(appId) {
      return apps.get(appId);
    },
    list() {
      return [...apps.values()];
    },
    replace(next) {
      apps = new Map(next.map((a) => [a.appId, a]));
      mode = next.length > 0 ? 'strict' : 'open';
    },
    remember(appId) {
      // Any key is accepted for an app open mode knows, so none is kept for it.
      if (mode === 'open' && !apps.has(appId)) apps.set(appId, { appId, apiKey: '' });
    },
    reset(appId) {
      // Only open mode adds apps; strict mode holds exactly the configured ones.
      if (mode === 'strict') return;
      if (appId === undefined) apps.clear();
      else apps.delete(appId);
    },
  };
}

/** `EMULATOR_APPS="app1:key1,app2:key2:eu"` → app configs; throws with the bad entry named. */
export function parseAppsEnv(value: string): AppConfig[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [appId, apiKey, region] = entry.split(':');
      if (!appId || !apiKey) throw new Error(`EMULATOR_APPS: "${entry}" is not of the form appId:apiKey`);
      if (region !== undefined && !/^[a-z0-9-]+$/i.test(region))
        throw new Error(`EMULATOR_APPS: "${entry}": the region must be letters, digits or "-"`);
      return region ? { appId, apiKey, region } : { appId, apiKey };
    });
}
