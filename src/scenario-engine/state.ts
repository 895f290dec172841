/**
 * The scenario engine's state besides what is loaded and globally active, as plain data and
 * back: each app's own set, every rule counter, the scenarios request headers have named and
 * where each random source stands. The data file keeps the apps' sets; a trace all of it, of
 * every app or of one (docs/traces.md).
 */
import type { RandomSource } from '../domain/ports.js';
import type { AppActivationSnapshot } from './app-activation.js';
import type { CountersSnapshot } from './counters.js';
import { ofApp, type ScenarioSets } from './scenario-sets.js';

export interface ScenarioStateSnapshot {
  apps: AppActivationSnapshot;
  counters: CountersSnapshot;
  /** The scenarios a request header has named, per app ('' for requests of no app). */
  headerActivated: Record<string, string[]>;
  /** Where the random sources stand: the one of requests of no app (null: it cannot say), each app's. */
  draws: { shared: number | null; apps: Record<string, number> };
}

/** `random`: the source of requests of no app. */
export function scenarioState(sets: ScenarioSets, random: RandomSource) {
  const { apps, counters, headerNamed } = sets;
  const mine = (appId: string | undefined) => (id: string) => appId === undefined || id === appId;
  return {
    /** The state as plain data: of every app, or only app `appId`'s (its own set, counters and draws). */
    snapshot(appId?: string): ScenarioStateSnapshot {
      const header = [...headerNamed].filter(([id]) => mine(appId)(id));
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
        const isLoaded = (name: string) => sets.loaded.has(name);
        const own = Object.entries(snapshot.apps).map(([id, names]) => [id, names.filter(isLoaded)]);
        apps.restore(Object.fromEntries(own), appId);
      }
      if (snapshot.counters) counters.restore(snapshot.counters, appId === undefined ? undefined : ofApp(appId));
      if (snapshot.headerActivated) {
        for (const id of [...headerNamed.keys()]) if (mine(appId)(id)) headerNamed.delete(id);
        for (const [id, names] of Object.entries(snapshot.headerActivated))
          if (mine(appId)(id)) headerNamed.set(id, new Set(names));
      }
      if (snapshot.draws) {
        const { shared } = snapshot.draws;
        if (appId === undefined && shared !== null) random.resume?.(shared);
        apps.resumeDraws(snapshot.draws.apps, appId);
      }
    },
  };
}
