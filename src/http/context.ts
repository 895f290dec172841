/**
 * Typed per-request variables shared by middleware and routes.
 */
import type { AppConfig } from '../catalog/apps.js';
import type { DeliveryFaultPolicy } from '../domain/ports.js';
import type { Emulator } from '../emulator.js';

export interface AppliedRule {
  scenario: string;
  rule: string;
}

export interface AppEnv {
  Variables: {
    emulator: Emulator;
    app: AppConfig;
    /** The error code the renderer sent, for the journal. */
    errorCode: string | undefined;
    /** The scenario rule that shaped this request, for the journal. */
    appliedRule: AppliedRule | undefined;
    /** Which deliveries of this request fail (scenario `failDelivery` rules). */
    deliveryFaults: DeliveryFaultPolicy;
  };
}
