/** How the scenario engine's delivery faults reach a send, without the domain knowing the engine. */
import type { Delivery } from '../../schemas/records.js';
import type { DeliveryFailureMark } from './deliveries.js';

export interface DeliveryFacts {
  appId: string;
  userId: string;
  templateKey: string;
  campaignId: string | null;
}

/** A failure a scenario decided: a DeliveryFailureMark that always names its scenario. */
export interface DeliveryFailure extends DeliveryFailureMark {
  scenario: NonNullable<Delivery['scenario']>;
}

/** Asked once per recipient: should this delivery fail, and because of which scenario? */
export interface DeliveryFaultPolicy {
  (facts: DeliveryFacts): DeliveryFailure | null;
  /**
   * True when no rule can fail a delivery of app `appId` now, so a send need not ask per
   * recipient (for a 10,000-target batch: 10,000 calls and fact objects saved). Absent: always ask.
   */
  readonly idle?: (appId: string) => boolean;
}

export const NO_DELIVERY_FAULTS: DeliveryFaultPolicy = Object.assign(() => null, { idle: () => true });
