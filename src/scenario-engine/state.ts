/**
 * The scenario engine's state besides what is loaded and globally active, as plain data and
 * back: each app's own set, every rule counter, the scenarios request headers have named and
 * where each random source stands. The data file keeps the apps' sets; a trace all of it, of
 * every app or of one (docs/reference.md#traces).
 */
import type { RandomSource } from '../domain/ports.js';
import type { AppActivation, AppActivationSnapshot } from './app-activation.js';
import type { CountersSnapshot, Layer, RuleCounters } from './counters.js';

export interface ScenarioStateSnapshot {
  apps: AppActivationSnapshot;
  counters: CountersSnapshot;
  /** The scenarios a request header has named, per app ('' for requests of no app). */
  headerActivated: Record<string, string[]>;
  /** Where the random sources stand: the one of requests of no app (null: it cannot say), each app's. */
  draws: { shared: number | null; apps: Record<string, number> };
}

/** The layers of app `appId`'s own counts: its own set's and its header's. */
export const ofApp = (appId: string) => (layer: Layer) => layer === `app:${appId}` || layer === `header:${appId}`;

interface EngineParts {
  apps: AppActivation;
  counters: RuleCounters;
  headerActivated: Map<string, Set<string>>;
  /** The source of requests of no app. */
  random: RandomSource;
  isLoaded: (name: string) => boolean;
}

export function stateOf({ apps, counters, headerActivated, random, isLoaded }: EngineParts) {
  const mine = (appId: string | undefined) => (id: string) => appId === undefined || id === appId;
  return {
    /** The state as plain data: of every app, or only app `appId`'s (its own set, counters and draws). */
    snapshot(appId?: string): ScenarioStateSnapshot {
      const header = [...headerActivated].filter(([id]) => mine(appId)(id));
      return {
        apps: apps.snapshot(appId),
        counters: counters.snapshot(appId === undefined ? undefined : ofApp(appId)),
        headerActivated: Object.fromEntries(header.map(([id, names]) => [id, [...names]])),
        draws: { shared: appId === undefined ? (random.state?.() ?? null) : null, apps: apps.drawStates(appId) },
      };
    },
    /**
     * Puts back what snapshot() gave, in place of what is there (the parts given; every app's,
     * or only `appId`'s). Scenarios it names that are not loaded are left out of the sets.
     */
    restore(snapshot: Partial<ScenarioStateSnapshot>, appId?: string): void {
      if (snapshot.apps) {
        const sets = Object.entries(snapshot.apps).map(([id, names]) => [id, names.filter(isLoaded)]);
        apps.restore(Object.fromEntries(sets), appId);
      }
      if (snapshot.counters) counters.restore(snapshot.counters, appId === undefined ? undefined : ofApp(appId));
      if (snapshot.headerActivated) {
        for (const id of [...headerActivated.keys()]) if (mine(appId)(id)) headerActivated.delete(id);
        for (const [id, names] of Object.entries(snapshot.headerActivated))
          if (mine(appId)(id)) headerActivated.set(id, new Set(names));
      }
      if (snapshot.draws) {
        const { shared } = snapshot.draws;
        if (appId === undefined && shared !== null) random.resume?.(shared);
        apps.resumeDraws(snapshot.draws.apps, appId);
      }
    },
  };
}
