/**
 * Typed per-request variables shared by middleware and routes.
 */
import type { AppConfig } from '../catalog/apps.js';
import type { DeliveryFaultPolicy } from '../domain/ports.js';
import type { Emulator } from '../emulator.js';
import type { AppliedRule } from '../schemas/records.js';

export interface AppEnv {
  Variables: {
    emulator: Emulator;
    app: AppConfig;
    /** The error code the renderer sent, for the journal. */
    errorCode: string | undefined;
    /** Every scenario rule that shaped this request (and the deliveries it caused), for the journal. */
    appliedRules: AppliedRule[] | undefined;
    /** Which deliveries of this request fail (scenario `failDelivery` rules). */
    deliveryFaults: DeliveryFaultPolicy;
  };
}
