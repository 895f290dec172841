/**
 * The loaded scenarios as the control plane shows them (GET /__scenarios): each rule
 * explained with the counters of one layer, or summed over the layers of every app's header.
 */
import { scenarioView, type LoadedScenario, type RuleView, type ScenarioView } from './compiled.js';
import type { Layer } from './counters.js';
import { headerLayer, isHeaderLayer, type ScenarioSets } from './scenario-sets.js';

export function scenarioViews(sets: ScenarioSets) {
  /** A scenario with its counters in `layer`, or summed over the layers `layer` keeps. */
  const view = (
    s: LoadedScenario,
    layer: Layer | ((layer: Layer) => boolean),
    activeSet: readonly string[] = sets.global,
  ): ScenarioView =>
    scenarioView(s, activeSet.includes(s.scenario.name), (index) =>
      typeof layer === 'function'
        ? sets.counters.sum(s.scenario.name, index, layer)
        : sets.counters.peek(layer, s.scenario.name, index),
    );

  return {
    /** Every loaded scenario with each rule explained, and the global counters or app `appId`'s. */
    explain(appId?: string): ScenarioView[] {
      const layer = appId === undefined ? 'global' : sets.activeLayer(appId);
      const set = appId === undefined ? sets.global : sets.effective(appId);
      return [...sets.loaded.values()].map((s) => view(s, layer, set));
    },
    /**
     * The scenarios a request header has named since the last reset, with the header counters
     * of app `appId`, or summed over every app.
     */
    explainHeaderActivated(appId?: string): ScenarioView[] {
      const names = new Set(
        appId === undefined
          ? [...sets.headerNamed.values()].flatMap((set) => [...set])
          : [...(sets.headerNamed.get(appId) ?? [])],
      );
      return [...names].flatMap((name) => {
        const s = sets.loaded.get(name);
        return s ? [view(s, appId === undefined ? isHeaderLayer : headerLayer(appId))] : [];
      });
    },
    /** One scenario: its view (global, or app `appId`'s) plus the rule views of header activation. */
    explainOne(name: string, appId?: string): (ScenarioView & { headerRules: RuleView[] }) | undefined {
      const s = sets.loaded.get(name);
      if (!s) return undefined;
      if (appId === undefined) return { ...view(s, 'global'), headerRules: view(s, isHeaderLayer).rules };
      const own = view(s, sets.activeLayer(appId), sets.effective(appId));
      return { ...own, headerRules: view(s, headerLayer(appId)).rules };
    },
  };
}
