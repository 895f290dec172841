/**
 * Typed per-request variables shared by middleware and routes. Routes get their services
 * from their table's factory, not from here.
 */
import type { DeliveryFaultPolicy } from '../domain/ports.js';

export interface AppliedRule {
  scenario: string;
  rule: string;
}

export interface AppEnv {
  Variables: {
    /** The tenant of an API request, set by auth (absent on the control plane and before auth). */
    appId: string;
    /** The error code the renderer sent, for the journal. */
    errorCode: string | undefined;
    /** The scenario rule that shaped this request, for the journal. */
    appliedRule: AppliedRule | undefined;
    /** Which deliveries of this request fail (scenario `failDelivery` rules). */
    deliveryFaults: DeliveryFaultPolicy;
  };
}
