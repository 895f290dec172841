/**
 * Which apps may call the API (docs/reference.md#authentication-and-apps).
 * Strict mode: a configured list of appId/apiKey pairs (and
 * optionally each app's region). Open mode (nothing configured): any non-empty pair is
 * accepted and the app is remembered on first use, up to a cap (tests that each use an app
 * of their own would otherwise pile up apps for as long as the emulator runs): past it the
 * app first seen longest ago is forgotten, which changes nothing for its calls (it is
 * remembered again on the next one) nor for its records. `replace` swaps the configured list
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
  /** How many apps are configured or remembered (list().length without building the list). */
  count(): number;
  /** Apps open mode has forgotten at its cap since the start (or the last full reset). */
  readonly dropped: number;
  /** New configured apps (apps.json reloaded): strict when any, open (starting empty) when none. */
  replace(configured: AppConfig[]): void;
  /** Forgets the apps open mode added on first use (one of them, when named); configured apps stay. */
  reset(appId?: string): void;
  /** Open mode: knows this app as if it had called (its records came back from a data file). Strict: nothing. */
  remember(appId: string): void;
}

/** `maxApps`: how many apps open mode remembers before it forgets the one first seen longest ago. */
export function createAppRegistry(configured: AppConfig[], maxApps: number): AppRegistry {
  let apps = new Map(configured.map((a) => [a.appId, a]));
  let mode: AppRegistry['mode'] = configured.length > 0 ? 'strict' : 'open';
  let dropped = 0;
  /** Open mode: a new app, the oldest forgotten past the cap (a Map keeps insertion order). */
  const rememberNew = (app: AppConfig): AppConfig => {
    apps.set(app.appId, app);
    for (const oldest of apps.keys()) {
      if (apps.size <= maxApps) break;
      apps.delete(oldest);
      dropped++;
    }
    return app;
  };
  return {
    get mode() {
      return mode;
    },
    get dropped() {
      return dropped;
    },
    authenticate(appId, apiKey) {
      if (!appId || !apiKey) return null;
      const known = apps.get(appId);
      if (known) return mode === 'open' || known.apiKey === apiKey ? known : null;
      if (mode === 'strict') return null;
      // Any key is accepted for an app open mode knows, so none is kept for it.
      return rememberNew({ appId, apiKey: '' });
    },
    find(appId) {
      return apps.get(appId);
    },
    list() {
      return [...apps.values()];
    },
    count() {
      return apps.size;
    },
    replace(next) {
      apps = new Map(next.map((a) => [a.appId, a]));
      mode = next.length > 0 ? 'strict' : 'open';
    },
    remember(appId) {
      if (mode === 'open' && !apps.has(appId)) rememberNew({ appId, apiKey: '' });
    },
    reset(appId) {
      // Only open mode adds apps; strict mode holds exactly the configured ones.
      if (mode === 'strict') return;
      if (appId !== undefined) return void apps.delete(appId);
      apps.clear();
      dropped = 0;
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
