/**
 * The scenario engine (docs/reference.md#scenarios), free of HTTP: loaded scenarios, the
 * globally active set, per-rule counters (kept apart for global and per-request header
 * activation), and the two questions it answers: what fault does this request get (`decide`)
 * and which deliveries fail (`deliveryFaults`). `forRequest` answers both for one API request,
 * from a snapshot of its facts, as a plain object that outlives the request without holding it.
 */
import {
  NO_DELIVERY_FAULTS,
  type DeliveryFacts,
  type DeliveryFaultPolicy,
  type RandomSource,
} from '../domain/ports.js';
import type { Scenario, ScenarioRule } from '../schemas/scenario-file.js';
import { buildMatchers, explainMatchers, type Matcher, type RequestFacts } from './match.js';
import { explainFault, isDeliveryFault, toRequestFault, type RequestFault } from './fault-kinds.js';
import type { z } from 'zod';
import type { scenarioViewSchema } from '../schemas/responses.js';
import type { createScenarioSchema } from '../schemas/scenario-file.js';

interface CompiledRule {
  /** 1-based, as people count rules. */
  index: number;
  rule: ScenarioRule;
  matchers: Matcher[];
  delivery: boolean;
  final: RequestFault | null;
}

interface LoadedScenario {
  scenario: Scenario;
  source: string;
  rules: CompiledRule[];
  json: string;
}

interface Counter {
  matched: number;
  applied: number;
}

/** Header activation counts separately from global activation, so parallel tests do not share counters. */
type Layer = 'global' | 'header';

export interface AppliedRuleInfo {
  scenario: string;
  /** 1-based position of the rule in its scenario. */
  index: number;
  /** The rule explained, with its counters as they were when it applied. */
  rule: string;
}

export interface Decision {
  /** Real-time delay before answering (sum of the delays of every applied rule). */
  delayMs: number;
  /** The final fault, or null to go on normally after the delay. */
  fault: RequestFault | null;
  /** Every rule that applied, in order; the last one decided the fault (if any). */
  applied: AppliedRuleInfo[];
}

/** One API request's answers from the engine; holds plain data only (no request or context). */
export interface RequestScope {
  /** What the request itself gets: delay, final fault, and the rules that applied. */
  readonly decision: Decision;
  /** Which deliveries of the work this request starts fail: now, or when a scheduled campaign runs. */
  readonly deliveryFaults: DeliveryFaultPolicy;
  /**
   * Every rule that shaped this request, for the journal: the request-level rules, then each
   * failDelivery rule the first time it fired for its deliveries (once per rule, so a campaign
   * that fires one per recipient keeps one entry).
   */
  appliedRules(): AppliedRuleInfo[];
}

const NO_RULES_APPLIED: AppliedRuleInfo[] = Object.freeze([]) as unknown as AppliedRuleInfo[];

/** The scope of every request while no scenario is active or named (see idleScope). */
const IDLE_SCOPE: RequestScope = Object.freeze({
  decision: Object.freeze({ delayMs: 0, fault: null, applied: NO_RULES_APPLIED }),
  deliveryFaults: NO_DELIVERY_FAULTS,
  appliedRules: () => NO_RULES_APPLIED,
});

/** A loaded scenario as the control plane shows it (its response schema, schemas/responses.ts). */
export type ScenarioView = z.infer<
  ReturnType<typeof scenarioViewSchema<ReturnType<typeof createScenarioSchema>['shape']['rules']['element']>>
>;
/** One rule of a ScenarioView, with its counters in one layer (global, or header activation). */
export type RuleView = ScenarioView['rules'][number];

/** A scenario file refused at load or reload, with what is wrong with it. */
export interface ScenarioLoadError {
  file: string;
  problems: string[];
}

/** One rule's counts in one layer, as a trace keeps them (rule counts from 1). */
export interface RuleCounter {
  layer: Layer;
  scenario: string;
  rule: number;
  matched: number;
  applied: number;
}

/** The engine's counts: every rule counter and the scenarios request headers have named. */
export interface ScenarioCounts {
  counters: RuleCounter[];
  headerActivated: string[];
}

export type ScenarioEngine = ReturnType<typeof createScenarioEngine>;

function compile(scenario: Scenario, source: string): LoadedScenario {
  const rules = scenario.rules.map((rule, i) => ({
    index: i + 1,
    rule,
    matchers: buildMatchers(rule.match),
    delivery: isDeliveryFault(rule.fault),
    final: toRequestFault(rule.fault),
  }));
  return { scenario, source, rules, json: JSON.stringify(scenario) };
}

export function createScenarioEngine(deps: { random: RandomSource }) {
  const loaded = new Map<string, LoadedScenario>();
  let active: string[] = [];
  const counters = new Map<string, Counter>();
  /** Scenarios a request header has named since the last reset (their header-layer counters are shown). */
  const headerActivated = new Set<string>();
  let loadErrors: ScenarioLoadError[] = [];

  const key = (layer: Layer, name: string, index: number) => `${layer}\u0000${name}\u0000${index}`;
  const counter = (layer: Layer, name: string, index: number): Counter => {
    const k = key(layer, name, index);
    let c = counters.get(k);
    if (!c) counters.set(k, (c = { matched: 0, applied: 0 }));
    return c;
  };
  const clearCounters = (name: string) => {
    for (const k of counters.keys()) if (k.split('\u0000')[1] === name) counters.delete(k);
  };

  /** Counts a match and says whether the rule applies now: after → times → probability. */
  const activate = (layer: Layer, name: string, compiled: CompiledRule): boolean => {
    const c = counter(layer, name, compiled.index);
    const { after, times, probability } = compiled.rule;
    c.matched += 1;
    if (c.matched <= after) return false;
    if (times !== undefined && c.applied >= times) return false;
    if (probability !== undefined && !(deps.random.next() < probability)) return false;
    c.applied += 1;
    return true;
  };

  const explainRule = (compiled: CompiledRule, c: Counter | undefined): string => {
    const { times, after, probability } = compiled.rule;
    const notes: string[] = [];
    if (times !== undefined) notes.push(`${Math.max(0, times - (c?.applied ?? 0))} of ${times} left`);
    if (after > 0) notes.push(`skips the first ${after} match${after === 1 ? '' : 'es'}, ${c?.matched ?? 0} seen`);
    if (probability !== undefined) notes.push(`probability ${probability}`);
    const suffix = notes.length ? ` (${notes.join('; ')})` : '';
    const fault = explainFault(compiled.rule.fault);
    return `rule ${compiled.index}: ${explainMatchers(compiled.matchers)} → ${fault}${suffix}`;
  };

  const appliedInfo = (layer: Layer, name: string, compiled: CompiledRule): AppliedRuleInfo => ({
    scenario: name,
    index: compiled.index,
    rule: explainRule(compiled, counter(layer, name, compiled.index)),
  });

  /** Global active scenarios then the request's own; a name in both counts as the request's. */
  const layers = (requestScenarios: readonly string[]): { name: string; layer: Layer; scenario: LoadedScenario }[] => {
    const out: { name: string; layer: Layer; scenario: LoadedScenario }[] = [];
    for (const name of active) {
      const s = loaded.get(name);
      if (s && !requestScenarios.includes(name)) out.push({ name, layer: 'global', scenario: s });
    }
    for (const name of new Set(requestScenarios)) {
      const s = loaded.get(name);
      if (s) out.push({ name, layer: 'header', scenario: s });
    }
    return out;
  };

  const view = ({ scenario, source, rules }: LoadedScenario, layer: Layer): ScenarioView => ({
    name: scenario.name,
    description: scenario.description ?? null,
    source,
    active: active.includes(scenario.name),
    rules: rules.map((compiled) => {
      const c = counters.get(key(layer, scenario.name, compiled.index));
      const { times, after, probability, match, fault } = compiled.rule;
      return {
        rule: compiled.index,
        explanation: explainRule(compiled, c),
        match,
        fault,
        times: times ?? null,
        after,
        probability: probability ?? null,
        matched: c?.matched ?? 0,
        applied: c?.applied ?? 0,
        remaining: times === undefined ? null : Math.max(0, times - (c?.applied ?? 0)),
      };
    }),
  });

  function decide(facts: RequestFacts, requestScenarios: readonly string[]): Decision {
    let delayMs = 0;
    const applied: AppliedRuleInfo[] = [];
    for (const name of requestScenarios) if (loaded.has(name)) headerActivated.add(name);
    for (const { name, layer, scenario } of layers(requestScenarios)) {
      for (const compiled of scenario.rules) {
        if (compiled.delivery || !compiled.matchers.every((m) => m.test(facts, undefined))) continue;
        if (!activate(layer, name, compiled)) continue;
        applied.push(appliedInfo(layer, name, compiled));
        delayMs += compiled.rule.fault.delayMs ?? 0;
        if (compiled.final) return { delayMs, fault: compiled.final, applied };
      }
    }
    return { delayMs, fault: null, applied };
  }

  /**
   * The failDelivery policy for work started by a request with these facts (none: rules
   * that match on the request never fire). The global active set is read at each call, so
   * a scheduled campaign sees the scenarios active when it runs.
   */
  function deliveryFaults(
    requestScenarios: readonly string[],
    request?: RequestFacts,
    onApplied?: (info: AppliedRuleInfo) => void,
  ): DeliveryFaultPolicy {
    const names = [...requestScenarios];
    const policy = (facts: DeliveryFacts) => {
      if (names.length === 0 && active.length === 0) return null; // asked per target: 10,000 times for one batch
      for (const { name, layer, scenario } of layers(names)) {
        for (const compiled of scenario.rules) {
          if (!compiled.delivery || !compiled.matchers.every((m) => m.test(request, facts))) continue;
          if (!activate(layer, name, compiled)) continue;
          onApplied?.(appliedInfo(layer, name, compiled));
          return { reason: compiled.rule.fault.failDelivery!, scenario: name };
        }
      }
      return null;
    };
    // No failDelivery rule in any scenario that applies now: the answer is null for everyone,
    // and no counter moves, so a send may skip asking per recipient.
    const idle = () => {
      for (const { scenario } of layers(names)) if (scenario.rules.some((rule) => rule.delivery)) return false;
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
      clearCounters(scenario.name);
      loaded.set(scenario.name, next);
    },
    /** Unloads a scenario (and deactivates it); false when unknown. */
    remove(name: string): boolean {
      if (!loaded.delete(name)) return false;
      active = active.filter((n) => n !== name);
      clearCounters(name);
      headerActivated.delete(name);
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
    active: (): string[] => [...active],
    /** Whether any scenario is globally active (checked on every request: no copy). */
    hasActive: (): boolean => active.length > 0,
    /** Replaces the global active set; the caller has checked the names with `requireLoaded`. */
    setActive(names: readonly string[]): void {
      active = [...new Set(names)];
    },
    /** Whether any rule these scenarios would consult looks at the request body. */
    needsBody(requestScenarios: readonly string[]): boolean {
      return layers(requestScenarios).some(({ scenario }) =>
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
      const onDeliveryRule = (info: AppliedRuleInfo) => {
        if (!deliveryRules.some((r) => r.index === info.index && r.scenario === info.scenario))
          deliveryRules.push(info);
      };
      return {
        decision,
        deliveryFaults: deliveryFaults(requestScenarios, facts, onDeliveryRule),
        appliedRules: () => (deliveryRules.length ? [...decision.applied, ...deliveryRules] : decision.applied),
      };
    },
    /**
     * The scope of a request while no scenario is active (and the request names none): no
     * rule can apply to it, so no facts are needed. Only for work done before the request
     * is answered (a send's deliveries): later work (a scheduled campaign) takes
     * forRequest's policy, which reads the active set when it runs. Undefined while a
     * scenario is active.
     */
    idleScope: (): RequestScope | undefined => (active.length === 0 ? IDLE_SCOPE : undefined),
    /** Every loaded scenario with each rule explained and its global counters. */
    explain(): ScenarioView[] {
      return [...loaded.values()].map((s) => view(s, 'global'));
    },
    /** The scenarios a request header has named since the last reset, with the header layer's counters. */
    explainHeaderActivated(): ScenarioView[] {
      return [...headerActivated].flatMap((name) => {
        const s = loaded.get(name);
        return s ? [view(s, 'header')] : [];
      });
    },
    /** One scenario: its global view plus the rule views of the header layer; undefined when unknown. */
    explainOne(name: string): (ScenarioView & { headerRules: RuleView[] }) | undefined {
      const s = loaded.get(name);
      return s && { ...view(s, 'global'), headerRules: view(s, 'header').rules };
    },
    /** Scenario files refused at the last load or reload (a fixed file drops out). */
    loadErrors: (): ScenarioLoadError[] => loadErrors.map((e) => ({ file: e.file, problems: [...e.problems] })),
    setLoadErrors(errors: ScenarioLoadError[]): void {
      loadErrors = errors;
    },
    /** Every rule counter and the header-named scenarios, as plain data (a trace's export). */
    counts(): ScenarioCounts {
      const list = [...counters].map(([k, c]): RuleCounter => {
        const [layer, scenario, index] = k.split('\u0000') as [Layer, string, string];
        return { layer, scenario, rule: Number(index), matched: c.matched, applied: c.applied };
      });
      return { counters: list, headerActivated: [...headerActivated] };
    },
    /** Replaces the counters and header-named scenarios with saved ones (a trace's import). */
    restoreCounts(saved: ScenarioCounts): void {
      counters.clear();
      headerActivated.clear();
      for (const c of saved.counters)
        counters.set(key(c.layer, c.scenario, c.rule), { matched: c.matched, applied: c.applied });
      for (const name of saved.headerActivated) headerActivated.add(name);
    },
    /** Restores every counter (global and per-header), as if no request had been seen. */
    reset(): void {
      counters.clear();
      headerActivated.clear();
    },
  };
}
