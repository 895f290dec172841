/**
 * The scenario engine (docs/reference.md#scenarios), free of HTTP: loaded scenarios, the
 * globally active set and each app's own set (app-activation.ts), per-rule counters (kept
 * apart for global, per-app and per-app header activation: counters.ts), and the two
 * questions it answers: what fault does this request get (`decide`) and which deliveries
 * fail (`deliveryFaults`). `forRequest` answers both for one API request,
 * from a snapshot of its facts, as a plain object that outlives the request without holding it.
 */
import { type DeliveryFacts, type DeliveryFaultPolicy, type RandomSource } from '../domain/ports.js';
import type { Scenario } from '../schemas/scenario-file.js';
import type { RequestFacts } from './match.js';
import {
  compile,
  explainRule,
  scenarioView,
  type CompiledRule,
  type LoadedScenario,
  type RuleView,
  type ScenarioView,
} from './compiled.js';
import { RuleCounters, type Counter, type Layer } from './counters.js';
import { AppActivation } from './app-activation.js';
import { ofApp, stateOf } from './state.js';

export type { RuleView, ScenarioView } from './compiled.js';
export type { AppliedRuleInfo, Decision, RequestScope } from './scope.js';
import { IDLE_SCOPE, type AppliedRuleInfo, type Decision, type RequestScope } from './scope.js';

export type { ScenarioStateSnapshot } from './state.js';

const headerLayer = (appId: string | null): Layer => `header:${appId ?? ''}`;
const isHeaderLayer = (layer: Layer) => layer.startsWith('header:');

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
  const loaded = new Map<string, LoadedScenario>();
  let active: string[] = [];
  const counters = new RuleCounters();
  const apps = new AppActivation(deps.randomFor ?? (() => deps.random));
  /** Scenarios a request header has named since the last reset, per app ('' for none): their counters are shown. */
  const headerActivated = new Map<string, Set<string>>();
  let loadErrors: ScenarioLoadError[] = [];
  const counter = (layer: Layer, name: string, index: number): Counter => counters.of(layer, name, index);

  /** The set that rules app `appId`'s requests: its own, or the global one. */
  const effective = (appId: string | null): readonly string[] => apps.setOf(appId) ?? active;
  const activeLayer = (appId: string | null): Layer =>
    appId !== null && apps.setOf(appId) ? `app:${appId}` : 'global';

  /** Counts a match and says whether the rule applies now: after → times → probability. */
  const activate = (layer: Layer, name: string, compiled: CompiledRule, appId: string | null): boolean => {
    const c = counter(layer, name, compiled.index);
    const { after, times, probability } = compiled.rule;
    c.matched += 1;
    if (c.matched <= after) return false;
    if (times !== undefined && c.applied >= times) return false;
    const random = appId === null ? deps.random : apps.random(appId);
    if (probability !== undefined && !(random.next() < probability)) return false;
    c.applied += 1;
    return true;
  };

  const appliedInfo = (layer: Layer, name: string, compiled: CompiledRule): AppliedRuleInfo => ({
    scenario: name,
    index: compiled.index,
    rule: explainRule(compiled, counter(layer, name, compiled.index)),
  });

  /**
   * The app's active scenarios (its own set, or the global one) then the request's own; a
   * name in both counts as the request's.
   */
  const layers = (
    requestScenarios: readonly string[],
    appId: string | null,
  ): { name: string; layer: Layer; scenario: LoadedScenario }[] => {
    const out: { name: string; layer: Layer; scenario: LoadedScenario }[] = [];
    const layer = activeLayer(appId);
    for (const name of effective(appId)) {
      const s = loaded.get(name);
      if (s && !requestScenarios.includes(name)) out.push({ name, layer, scenario: s });
    }
    for (const name of new Set(requestScenarios)) {
      const s = loaded.get(name);
      if (s) out.push({ name, layer: headerLayer(appId), scenario: s });
    }
    return out;
  };

  /** A scenario with its counters in `layer`, or summed over the layers `layer` keeps. */
  const view = (
    s: LoadedScenario,
    layer: Layer | ((layer: Layer) => boolean),
    activeSet: readonly string[] = active,
  ): ScenarioView =>
    scenarioView(s, activeSet.includes(s.scenario.name), (index) =>
      typeof layer === 'function'
        ? counters.sum(s.scenario.name, index, layer)
        : counters.peek(layer, s.scenario.name, index),
    );

  const noteHeader = (appId: string | null, name: string) => {
    let names = headerActivated.get(appId ?? '');
    if (!names) headerActivated.set(appId ?? '', (names = new Set()));
    names.add(name);
  };

  function decide(facts: RequestFacts, requestScenarios: readonly string[]): Decision {
    let delayMs = 0;
    const applied: AppliedRuleInfo[] = [];
    for (const name of requestScenarios) if (loaded.has(name)) noteHeader(facts.appId, name);
    for (const { name, layer, scenario } of layers(requestScenarios, facts.appId)) {
      for (const compiled of scenario.rules) {
        if (compiled.delivery || !compiled.matchers.every((m) => m.test(facts, undefined))) continue;
        if (!activate(layer, name, compiled, facts.appId)) continue;
        applied.push(appliedInfo(layer, name, compiled));
        delayMs += compiled.rule.fault.delayMs ?? 0;
        if (compiled.final) return { delayMs, fault: compiled.final, applied };
      }
    }
    return { delayMs, fault: null, applied };
  }

  /**
   * The failDelivery policy for work started by a request with these facts (none: rules
   * that match on the request never fire). The app's active set is read at each call, so
   * a scheduled campaign sees the scenarios active for its app when it runs.
   */
  function deliveryFaults(
    requestScenarios: readonly string[],
    request?: RequestFacts,
    onApplied?: (info: AppliedRuleInfo) => void,
  ): DeliveryFaultPolicy {
    const names = [...requestScenarios];
    const policy = (facts: DeliveryFacts) => {
      // Asked per target: 10,000 times for one batch.
      if (names.length === 0 && effective(facts.appId).length === 0) return null;
      for (const { name, layer, scenario } of layers(names, facts.appId)) {
        for (const compiled of scenario.rules) {
          if (!compiled.delivery || !compiled.matchers.every((m) => m.test(request, facts))) continue;
          if (!activate(layer, name, compiled, facts.appId)) continue;
          onApplied?.(appliedInfo(layer, name, compiled));
          return { reason: compiled.rule.fault.failDelivery!, scenario: name };
        }
      }
      return null;
    };
    // No failDelivery rule in any scenario that applies now: the answer is null for everyone,
    // and no counter moves, so a send may skip asking per recipient.
    const idle = () => {
      for (const { scenario } of layers(names, request?.appId ?? null))
        if (scenario.rules.some((rule) => rule.delivery)) return false;
      return true;
    };
    return Object.assign(policy, { idle });
  }

  return {
    /** Adds or replaces a scenario; a changed definition starts with fresh counters. */
    load(scenario: Scenario, source: string): void {
      const next = compile(scenario, source);
      const previous = loaded.get(scenario.name);
      if (previous && previous.json === next.json) {
        loaded.set(scenario.name, { ...previous, source });
        return;
      }
      counters.clearScenario(scenario.name);
      loaded.set(scenario.name, next);
    },
    /** Unloads a scenario (and deactivates it); false when unknown. */
    remove(name: string): boolean {
      if (!loaded.delete(name)) return false;
      active = active.filter((n) => n !== name);
      for (const appId of apps.drop(name)) changed(appId);
      counters.clearScenario(name);
      for (const names of headerActivated.values()) names.delete(name);
      return true;
    },
    has: (name: string) => loaded.has(name),
    /** The definition of a loaded scenario. */
    get: (name: string): Scenario | undefined => loaded.get(name)?.scenario,
    names: () => [...loaded.keys()],
    sourceOf: (name: string) => loaded.get(name)?.source,
    /**
     * The one check that scenario names are loaded: throws what `refuse` makes of the unknown
     * names (and the loaded ones, to list) when any of `names` is not loaded.
     */
    requireLoaded(names: readonly string[], refuse: (unknown: string[], loaded: string[]) => Error): void {
      const unknown = names.filter((n) => !loaded.has(n));
      if (unknown.length) throw refuse(unknown, [...loaded.keys()]);
    },
    /** The global active set, or the set that applies to app `appId` (its own, or the global one). */
    active: (appId?: string): string[] => [...(appId === undefined ? active : effective(appId))],
    /** Whether app `appId` has its own active set ('app') or follows the global one. */
    scopeOf: (appId: string): 'app' | 'global' => (apps.setOf(appId) ? 'app' : 'global'),
    /** Whether any scenario is active for the app (checked on every request: no copy). */
    hasActive: (appId: string | null): boolean => effective(appId).length > 0,
    /**
     * Replaces the global active set, or app `appId`'s own (which then alone applies to it);
     * the caller has checked the names with `requireLoaded`.
     */
    setActive(names: readonly string[], appId?: string): void {
      if (appId === undefined) active = [...new Set(names)];
      else {
        apps.set(appId, names);
        changed(appId);
      }
    },
    /** App `appId`'s own active set; null while the global set applies to it. */
    ownActive: (appId: string): string[] | null => {
      const own = apps.setOf(appId);
      return own ? [...own] : null;
    },
    /** Returns app `appId` to the global set (its own counters stay until a reset); false when it had none. */
    useGlobal(appId: string): boolean {
      if (!apps.clear(appId)) return false;
      changed(appId);
      return true;
    },
    /** Whether any rule these scenarios would consult for the app looks at the request body. */
    needsBody(requestScenarios: readonly string[], appId: string | null): boolean {
      return layers(requestScenarios, appId).some(({ scenario }) =>
        scenario.rules.some(
          ({ rule }) =>
            rule.match.body !== undefined ||
            rule.match.templateKey !== undefined ||
            rule.match.campaignId !== undefined,
        ),
      );
    },
    decide,
    deliveryFaults,
    /**
     * Both answers for one API request: its decision now, and the delivery-fault policy of
     * the work it starts. `facts` is a snapshot the caller took (plain data), which is all
     * the policy keeps, so a scheduled campaign holds no request.
     */
    forRequest(facts: RequestFacts, requestScenarios: readonly string[]): RequestScope {
      const decision = decide(facts, requestScenarios);
      const deliveryRules: AppliedRuleInfo[] = [];
      const listeners: ((rules: AppliedRuleInfo[]) => void)[] = [];
      const appliedRules = () => (deliveryRules.length ? [...decision.applied, ...deliveryRules] : decision.applied);
      const onDeliveryRule = (info: AppliedRuleInfo) => {
        if (deliveryRules.some((r) => r.index === info.index && r.scenario === info.scenario)) return;
        deliveryRules.push(info);
        if (listeners.length) {
          const rules = appliedRules();
          for (const listener of listeners) listener(rules);
        }
      };
      return {
        decision,
        deliveryFaults: deliveryFaults(requestScenarios, facts, onDeliveryRule),
        appliedRules,
        followRules: (listener) => void listeners.push(listener),
      };
    },
    /**
     * The scope of a request while no scenario is active (and the request names none): no
     * rule can apply to it, so no facts are needed. Only for work done before the request
     * is answered (a send's deliveries): later work (a scheduled campaign) takes
     * forRequest's policy, which reads the active set when it runs. Undefined while a
     * scenario is active.
     */
    idleScope: (appId: string): RequestScope | undefined => (effective(appId).length === 0 ? IDLE_SCOPE : undefined),
    /** Every loaded scenario with each rule explained, and the global counters or app `appId`'s. */
    explain(appId?: string): ScenarioView[] {
      const layer = appId === undefined ? 'global' : activeLayer(appId);
      const set = appId === undefined ? active : effective(appId);
      return [...loaded.values()].map((s) => view(s, layer, set));
    },
    /**
     * The scenarios a request header has named since the last reset, with the header counters
     * of app `appId`, or summed over every app.
     */
    explainHeaderActivated(appId?: string): ScenarioView[] {
      const names = new Set(
        appId === undefined
          ? [...headerActivated.values()].flatMap((set) => [...set])
          : [...(headerActivated.get(appId) ?? [])],
      );
      return [...names].flatMap((name) => {
        const s = loaded.get(name);
        return s ? [view(s, appId === undefined ? isHeaderLayer : headerLayer(appId))] : [];
      });
    },
    /** One scenario: its view (global, or app `appId`'s) plus the rule views of header activation. */
    explainOne(name: string, appId?: string): (ScenarioView & { headerRules: RuleView[] }) | undefined {
      const s = loaded.get(name);
      if (!s) return undefined;
      if (appId === undefined) return { ...view(s, 'global'), headerRules: view(s, isHeaderLayer).rules };
      return { ...view(s, activeLayer(appId), effective(appId)), headerRules: view(s, headerLayer(appId)).rules };
    },
    /** Scenario files refused at the last load or reload (a fixed file drops out). */
    loadErrors: (): ScenarioLoadError[] => loadErrors.map((e) => ({ file: e.file, problems: [...e.problems] })),
    setLoadErrors(errors: ScenarioLoadError[]): void {
      loadErrors = errors;
    },
    /**
     * Restores every counter (global, per app, per header), as if no request had been seen;
     * with `appId` only that app's (its own set's and its header's) and its random draws.
     */
    reset(appId?: string): void {
      if (appId === undefined) {
        counters.clear();
        headerActivated.clear();
        apps.restartDraws();
        return;
      }
      counters.clear(ofApp(appId));
      headerActivated.delete(appId);
      apps.restartDraws(appId);
    },
    /** Every app back to the global set (POST /__reset); returns the apps that had their own. */
    useGlobalEverywhere(): void {
      for (const appId of apps.clearAll()) changed(appId);
    },
    ...stateOf({ apps, counters, headerActivated, random: deps.random, isLoaded: (name) => loaded.has(name) }),
  };
}
