/**
 * The scenario engine (docs/reference.md#scenarios), free of HTTP: what the rest of the
 * emulator asks of scenarios, in one object. Its parts each have one job: what is loaded and
 * active for whom, with the counters (scenario-sets.ts); which rules fire for a request or a
 * delivery (rule-firing.ts); how the control plane sees them (scenario-views.ts). This file
 * composes them, tells the data file when an app's own set changes, and keeps the load errors.
 */
import type { RandomSource } from '../domain/ports.js';
import type { Scenario } from '../schemas/scenario-file.js';
import { ScenarioSets, type ScenarioStateSnapshot } from './scenario-sets.js';
import { ruleFiring } from './rule-firing.js';
import { scenarioViews } from './scenario-views.js';
import { IDLE_SCOPE, type RequestScope } from './scope.js';

export type { ScenarioView } from './compiled.js';
export type { AppliedRuleInfo, RequestScope } from './scope.js';

/** A scenario file refused at load or reload, with what is wrong with it. */
export interface ScenarioLoadError {
  file: string;
  problems: string[];
}

export type ScenarioEngine = ReturnType<typeof createScenarioEngine>;

/**
 * `random` draws for requests of no app; `randomFor(appId)` makes an app's own source (the
 * emulator seeds it from --seed and the app id). Without it apps draw from `random`.
 */
export function createScenarioEngine(deps: {
  random: RandomSource;
  randomFor?: (appId: string) => RandomSource;
  /** Told after an app's own active set is set, changed or dropped (the data file keeps it). */
  onAppChange?: (appId: string) => void;
}) {
  const changed = deps.onAppChange ?? (() => {});
  const sets = new ScenarioSets(deps.randomFor ?? (() => deps.random));
  let loadErrors: ScenarioLoadError[] = [];

  return {
    ...ruleFiring(sets, deps.random),
    ...scenarioViews(sets),
    /** Adds or replaces a scenario; a changed definition starts with fresh counters. */
    load: (scenario: Scenario, source: string): void => sets.load(scenario, source),
    /** Unloads a scenario (and deactivates it); false when unknown. */
    remove(name: string): boolean {
      const changedApps = sets.remove(name);
      if (changedApps === undefined) return false;
      for (const appId of changedApps) changed(appId);
      return true;
    },
    has: (name: string) => sets.loaded.has(name),
    /** The definition of a loaded scenario. */
    get: (name: string): Scenario | undefined => sets.loaded.get(name)?.scenario,
    names: () => [...sets.loaded.keys()],
    sourceOf: (name: string) => sets.loaded.get(name)?.source,
    /**
     * The one check that scenario names are loaded: throws what `refuse` makes of the unknown
     * names (and the loaded ones, to list) when any of `names` is not loaded.
     */
    requireLoaded(names: readonly string[], refuse: (unknown: string[], loaded: string[]) => Error): void {
      const unknown = names.filter((n) => !sets.loaded.has(n));
      if (unknown.length) throw refuse(unknown, [...sets.loaded.keys()]);
    },
    /** The global active set, or the set that applies to app `appId` (its own, or the global one). */
    active: (appId?: string): string[] => [...(appId === undefined ? sets.global : sets.effective(appId))],
    /** Whether app `appId` has its own active set ('app') or follows the global one. */
    scopeOf: (appId: string): 'app' | 'global' => (sets.apps.setOf(appId) ? 'app' : 'global'),
    /** Whether any scenario is active for the app (checked on every request: no copy). */
    hasActive: (appId: string | null): boolean => sets.effective(appId).length > 0,
    /**
     * Replaces the global active set, or app `appId`'s own (which then alone applies to it);
     * the caller has checked the names with `requireLoaded`.
     */
    setActive(names: readonly string[], appId?: string): void {
      if (appId === undefined) sets.global = [...new Set(names)];
      else {
        sets.apps.set(appId, names);
        changed(appId);
      }
    },
    /** App `appId`'s own active set; null while the global set applies to it. */
    ownActive: (appId: string): string[] | null => {
      const own = sets.apps.setOf(appId);
      return own ? [...own] : null;
    },
    /** Returns app `appId` to the global set (its own counters stay until a reset); false when it had none. */
    useGlobal(appId: string): boolean {
      if (!sets.apps.clear(appId)) return false;
      changed(appId);
      return true;
    },
    /** Every app back to the global set (POST /__reset). */
    useGlobalEverywhere(): void {
      for (const appId of sets.apps.clearAll()) changed(appId);
    },
    /**
     * The scope of a request while no scenario is active (and the request names none): no
     * rule can apply to it, so no facts are needed. Only for work done before the request
     * is answered (a send's deliveries): later work (a scheduled campaign) takes
     * forRequest's policy, which reads the active set when it runs. Undefined while a
     * scenario is active.
     */
    idleScope: (appId: string): RequestScope | undefined =>
      sets.effective(appId).length === 0 ? IDLE_SCOPE : undefined,
    /** Scenario files refused at the last load or reload (a fixed file drops out). */
    loadErrors: (): ScenarioLoadError[] => loadErrors.map((e) => ({ file: e.file, problems: [...e.problems] })),
    setLoadErrors(errors: ScenarioLoadError[]): void {
      loadErrors = errors;
    },
    /**
     * Restores every counter (global, per app, per header), as if no request had been seen;
     * with `appId` only that app's (its own set's and its header's) and its random draws.
     */
    reset: (appId?: string): void => sets.reset(appId),
    /** The per-app activation and every counter as plain data (the data file keeps the sets; a trace all). */
    snapshot: (): ScenarioStateSnapshot => sets.snapshot(),
    /** Puts back what snapshot() gave; scenarios it names that are not loaded are left out of the sets. */
    restore: (snapshot: Partial<ScenarioStateSnapshot>): void => sets.restore(snapshot),
  };
}
