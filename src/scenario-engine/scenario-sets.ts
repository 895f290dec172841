/**
 * What the scenario engine holds, and the one rule of which scenarios apply to whom: the
 * loaded scenarios, the global active set, each app's own set (app-activation.ts), the names
 * a request header has named (their counters are shown), and every rule counter
 * (counters.ts), kept per layer: the global set, an app's own set, an app's header.
 */
import type { RandomSource } from '../domain/ports.js';
import type { Scenario } from '../schemas/scenario-file.js';
import { compile, type LoadedScenario } from './compiled.js';
import { AppActivation, type AppActivationSnapshot } from './app-activation.js';
import { RuleCounters, type CountersSnapshot, type Layer } from './counters.js';

/** The engine's per-app state as plain data (snapshot/restore): app sets and every counter. */
export interface ScenarioStateSnapshot {
  apps: AppActivationSnapshot;
  counters: CountersSnapshot;
}

/** Where the counters of the scenarios a request of app `appId` names in its header count. */
export const headerLayer = (appId: string | null): Layer => `header:${appId ?? ''}`;
export const isHeaderLayer = (layer: Layer) => layer.startsWith('header:');

/** A scenario that applies to a request, with the layer its counters count in. */
export interface ApplyingScenario {
  name: string;
  layer: Layer;
  scenario: LoadedScenario;
}

export class ScenarioSets {
  readonly loaded = new Map<string, LoadedScenario>();
  /** The global active set. */
  global: string[] = [];
  readonly counters = new RuleCounters();
  readonly apps: AppActivation;
  /** Scenarios a request header has named since the last reset, per app ('' for none): their counters are shown. */
  readonly headerNamed = new Map<string, Set<string>>();

  /** `randomFor(appId)` makes an app's own random source for its `probability` draws. */
  constructor(randomFor: (appId: string) => RandomSource) {
    this.apps = new AppActivation(randomFor);
  }

  /** The set that rules app `appId`'s requests: its own, or the global one. */
  effective(appId: string | null): readonly string[] {
    return this.apps.setOf(appId) ?? this.global;
  }

  /** Where the counters of the app's active scenarios count: its own set's layer, or the global one. */
  activeLayer(appId: string | null): Layer {
    return appId !== null && this.apps.setOf(appId) ? `app:${appId}` : 'global';
  }

  /**
   * The app's active scenarios (its own set, or the global one) then the request's own; a
   * name in both counts as the request's.
   */
  applying(requestScenarios: readonly string[], appId: string | null): ApplyingScenario[] {
    const out: ApplyingScenario[] = [];
    const layer = this.activeLayer(appId);
    for (const name of this.effective(appId)) {
      const scenario = this.loaded.get(name);
      if (scenario && !requestScenarios.includes(name)) out.push({ name, layer, scenario });
    }
    for (const name of new Set(requestScenarios)) {
      const scenario = this.loaded.get(name);
      if (scenario) out.push({ name, layer: headerLayer(appId), scenario });
    }
    return out;
  }

  /** Remembers the loaded scenarios a request header named, so their counters are shown. */
  noteHeader(appId: string | null, requestScenarios: readonly string[]): void {
    for (const name of requestScenarios) {
      if (!this.loaded.has(name)) continue;
      let names = this.headerNamed.get(appId ?? '');
      if (!names) this.headerNamed.set(appId ?? '', (names = new Set()));
      names.add(name);
    }
  }

  /** Adds or replaces a scenario; a changed definition starts with fresh counters. */
  load(scenario: Scenario, source: string): void {
    const next = compile(scenario, source);
    const previous = this.loaded.get(scenario.name);
    if (previous && previous.json === next.json) {
      this.loaded.set(scenario.name, { ...previous, source });
      return;
    }
    this.counters.clearScenario(scenario.name);
    this.loaded.set(scenario.name, next);
  }

  /** Unloads a scenario from everywhere; the apps whose own set named it, or undefined when unknown. */
  remove(name: string): string[] | undefined {
    if (!this.loaded.delete(name)) return undefined;
    this.global = this.global.filter((n) => n !== name);
    const changedApps = this.apps.drop(name);
    this.counters.clearScenario(name);
    for (const names of this.headerNamed.values()) names.delete(name);
    return changedApps;
  }

  /**
   * Restores every counter (global, per app, per header), as if no request had been seen;
   * with `appId` only that app's (its own set's and its header's) and its random draws.
   */
  reset(appId?: string): void {
    if (appId === undefined) {
      this.counters.clear();
      this.headerNamed.clear();
      this.apps.restartDraws();
      return;
    }
    this.counters.clear((layer) => layer === `app:${appId}` || layer === headerLayer(appId));
    this.headerNamed.delete(appId);
    this.apps.restartDraws(appId);
  }

  snapshot(): ScenarioStateSnapshot {
    return { apps: this.apps.snapshot(), counters: this.counters.snapshot() };
  }

  /** Puts back what snapshot() gave; scenarios it names that are not loaded are left out of the sets. */
  restore(snapshot: Partial<ScenarioStateSnapshot>): void {
    for (const [appId, names] of Object.entries(snapshot.apps ?? {}))
      this.apps.set(
        appId,
        names.filter((n) => this.loaded.has(n)),
      );
    if (snapshot.counters) this.counters.restore(snapshot.counters);
  }
}
