/**
 * A scenario compiled for the engine (its rules with their matchers and faults) and how the
 * control plane shows it: each rule explained in words with the counters of one layer.
 */
import type { z } from 'zod';
import type { Scenario, ScenarioRule } from '../schemas/scenario-file.js';
import type { createScenarioSchema } from '../schemas/scenario-file.js';
import type { scenarioViewSchema } from '../schemas/responses.js';
import { buildMatchers, explainMatchers, type Matcher } from './match.js';
import { explainFault, isDeliveryFault, toRequestFault, type RequestFault } from './fault-kinds.js';
import type { Counter } from './counters.js';

export interface CompiledRule {
  /** 1-based, as people count rules. */
  index: number;
  rule: ScenarioRule;
  matchers: Matcher[];
  delivery: boolean;
  final: RequestFault | null;
}

export interface LoadedScenario {
  scenario: Scenario;
  source: string;
  rules: CompiledRule[];
  json: string;
}

/** A loaded scenario as the control plane shows it (its response schema, schemas/responses.ts). */
export type ScenarioView = z.infer<
  ReturnType<typeof scenarioViewSchema<ReturnType<typeof createScenarioSchema>['shape']['rules']['element']>>
>;
/** One rule of a ScenarioView, with its counters in one layer (global, or header activation). */
export type RuleView = ScenarioView['rules'][number];

export function compile(scenario: Scenario, source: string): LoadedScenario {
  const rules = scenario.rules.map((rule, i) => ({
    index: i + 1,
    rule,
    matchers: buildMatchers(rule.match),
    delivery: isDeliveryFault(rule.fault),
    final: toRequestFault(rule.fault),
  }));
  return { scenario, source, rules, json: JSON.stringify(scenario) };
}

export function explainRule(compiled: CompiledRule, c: Counter | undefined): string {
  const { times, after, probability } = compiled.rule;
  const notes: string[] = [];
  if (times !== undefined) notes.push(`${Math.max(0, times - (c?.applied ?? 0))} of ${times} left`);
  if (after > 0) notes.push(`skips the first ${after} match${after === 1 ? '' : 'es'}, ${c?.matched ?? 0} seen`);
  if (probability !== undefined) notes.push(`probability ${probability}`);
  const suffix = notes.length ? ` (${notes.join('; ')})` : '';
  const fault = explainFault(compiled.rule.fault);
  return `rule ${compiled.index}: ${explainMatchers(compiled.matchers)} → ${fault}${suffix}`;
}

/** A loaded scenario as the control plane shows it, with `counterOf(rule index)`'s counts. */
export function scenarioView(
  { scenario, source, rules }: LoadedScenario,
  active: boolean,
  counterOf: (index: number) => Counter | undefined,
): ScenarioView {
  return {
    name: scenario.name,
    description: scenario.description ?? null,
    source,
    active,
    rules: rules.map((compiled) => {
      const c = counterOf(compiled.index);
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
  };
}
