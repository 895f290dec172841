/**
 * Which apps may call the API (CONTRACT §3). Strict mode: a configured list of
 * appId/apiKey pairs. Open mode (nothing configured): any non-empty pair is accepted
 * and the app is remembered on first use.
 */
import { z } from 'zod';

export const AppConfigSchema = z.object({
  appId: z.string().min(1),
  apiKey: z.string().min(1),
  region: z.string().min(1).default('us'),
});
export const AppsFileSchema = z.array(AppConfigSchema);
export type AppConfig = z.infer<typeof AppConfigSchema>;

export interface AppRegistry {
  readonly mode: 'open' | 'strict';
  /** The app for these credentials, or null when they are missing or wrong. */
  authenticate(appId: string, apiKey: string): AppConfig | null;
  list(): AppConfig[];
  /** Forgets the apps open mode added on first use (one of them, when named); configured apps stay. */
  reset(appId?: string): void;
}

export function createAppRegistry(configured: AppConfig[]): AppRegistry {
  const apps = new Map(configured.map((a) => [a.appId, a]));
  const mode = configured.length > 0 ? 'strict' : 'open';
  return {
    mode,
    authenticate(appId, apiKey) {
      if (!appId || !apiKey) return null;
      const known = apps.get(appId);
      if (known) return mode === 'open' || known.apiKey === apiKey ? known : null;
      if (mode === 'strict') return null;
      const created: AppConfig = { appId, apiKey, region: 'us' };
      apps.set(appId, created);
      return created;
    },
    list() {
      return [...apps.values()];
    },
    reset(appId) {
      const configuredIds = new Set(configured.map((a) => a.appId));
      for (const id of [...apps.keys()])
        if (!configuredIds.has(id) && (appId === undefined || id === appId)) apps.delete(id);
    },
  };
}

/** `EMULATOR_APPS="app1:key1,app2:key2"` → app configs; throws with the bad entry named. */
export function parseAppsEnv(value: string): AppConfig[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [appId, apiKey, region] = entry.split(':');
      if (!appId || !apiKey) throw new Error(`EMULATOR_APPS: "${entry}" is not of the form appId:apiKey`);
      return { appId, apiKey, region: region || 'us' };
    });
}
