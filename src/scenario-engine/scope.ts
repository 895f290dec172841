/**
 * What the scenario engine answers for one API request: the decision (delay, final fault,
 * rules applied) and the delivery-fault policy of the work it starts, as plain data.
 */
import { NO_DELIVERY_FAULTS, type DeliveryFaultPolicy } from '../domain/ports.js';
import type { RequestFault } from './fault-kinds.js';

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
  /**
   * Calls `listener` with appliedRules() whenever a failDelivery rule first fires after this
   * call: a campaign delivers after its send was answered (and journaled), so the journal
   * brings that entry up to date this way.
   */
  followRules(listener: (rules: AppliedRuleInfo[]) => void): void;
}

const NO_RULES_APPLIED: AppliedRuleInfo[] = Object.freeze([]) as unknown as AppliedRuleInfo[];

/** The scope of every request while no scenario is active or named (see idleScope). */
export const IDLE_SCOPE: RequestScope = Object.freeze({
  decision: Object.freeze({ delayMs: 0, fault: null, applied: NO_RULES_APPLIED }),
  deliveryFaults: NO_DELIVERY_FAULTS,
  appliedRules: () => NO_RULES_APPLIED,
  // Its policy never fires a rule.
  followRules: () => {},
});
