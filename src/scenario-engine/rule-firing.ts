/**
 * Which rules fire, and what that does: a rule whose matchers accept a request (or a
 * delivery) counts the match, then applies once its `after` matches are past, at most `times`
 * times, with its `probability` (drawn from the app's own source). `decide` answers for a
 * request (its delays summed, its final fault), `deliveryFaults` for each delivery of the
 * work a request starts, and `forRequest` both for one request, from a snapshot of its
 * facts, as a plain object that outlives the request without holding it.
 */
import type { DeliveryFacts, DeliveryFaultPolicy, RandomSource } from '../domain/ports.js';
import type { RequestFacts } from './match.js';
import { explainRule, type CompiledRule } from './compiled.js';
import type { Layer } from './counters.js';
import type { ScenarioSets } from './scenario-sets.js';
import type { AppliedRuleInfo, Decision, RequestScope } from './scope.js';

/** Counts a match and says whether the rule applies now: after → times → probability. */
function activateRule(
  sets: ScenarioSets,
  random: RandomSource,
  layer: Layer,
  name: string,
  compiled: CompiledRule,
  appId: string | null,
): boolean {
  const c = sets.counters.of(layer, name, compiled.index);
  const { after, times, probability } = compiled.rule;
  c.matched += 1;
  if (c.matched <= after) return false;
  if (times !== undefined && c.applied >= times) return false;
  const draws = appId === null ? random : sets.apps.random(appId);
  if (probability !== undefined && !(draws.next() < probability)) return false;
  c.applied += 1;
  return true;
}

const appliedRule = (sets: ScenarioSets, layer: Layer, name: string, compiled: CompiledRule): AppliedRuleInfo => ({
  scenario: name,
  index: compiled.index,
  rule: explainRule(compiled, sets.counters.of(layer, name, compiled.index)),
});

/** Whether any rule these scenarios would consult for the app looks at the request body. */
function needsBody(sets: ScenarioSets, requestScenarios: readonly string[], appId: string | null): boolean {
  return sets
    .applying(requestScenarios, appId)
    .some(({ scenario }) =>
      scenario.rules.some(
        ({ rule }) =>
          rule.match.body !== undefined || rule.match.templateKey !== undefined || rule.match.campaignId !== undefined,
      ),
    );
}

/** `random` draws for requests of no app; an app draws from its own source (ScenarioSets.apps). */
export function ruleFiring(sets: ScenarioSets, random: RandomSource) {
  const activate = (layer: Layer, name: string, compiled: CompiledRule, appId: string | null) =>
    activateRule(sets, random, layer, name, compiled, appId);
  const appliedInfo = (layer: Layer, name: string, compiled: CompiledRule) => appliedRule(sets, layer, name, compiled);

  function decide(facts: RequestFacts, requestScenarios: readonly string[]): Decision {
    let delayMs = 0;
    const applied: AppliedRuleInfo[] = [];
    sets.noteHeader(facts.appId, requestScenarios);
    for (const { name, layer, scenario } of sets.applying(requestScenarios, facts.appId)) {
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
      if (names.length === 0 && sets.effective(facts.appId).length === 0) return null;
      for (const { name, layer, scenario } of sets.applying(names, facts.appId)) {
        for (const compiled of scenario.rules) {
          if (!compiled.delivery || !compiled.matchers.every((m) => m.test(request, facts))) continue;
          if (!activate(layer, name, compiled, facts.appId)) continue;
          onApplied?.(appliedInfo(layer, name, compiled));
          return { reason: compiled.rule.fault.failDelivery!, scenario: name };
        }
      }
      return null;
    };
    // No failDelivery rule in any scenario that applies now to the send's app: the answer is
    // null for everyone, and no counter moves, so a send may skip asking per recipient. The app
    // is the send's, not the request's: a campaign resumed on start has no request, and its
    // app's own active set applies to it.
    const idle = (appId: string) => {
      for (const { scenario } of sets.applying(names, appId))
        if (scenario.rules.some((rule) => rule.delivery)) return false;
      return true;
    };
    return Object.assign(policy, { idle });
  }

  return {
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
    /** Whether any rule these scenarios would consult for the app looks at the request body. */
    needsBody: (requestScenarios: readonly string[], appId: string | null): boolean =>
      needsBody(sets, requestScenarios, appId),
  };
}
