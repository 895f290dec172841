/**
 * Typed per-request variables shared by middleware and routes. Routes get their services
 * from their table's factory, not from here.
 */
import type { RequestScope } from '../scenario-engine/engine.js';

export interface AppEnv {
  Variables: {
    /** The tenant of an API request, set by auth (absent on the control plane and before auth). */
    appId: string;
    /** The error code the renderer sent, for the journal. */
    errorCode: string | undefined;
    /**
     * The scenario engine's answers for this API request (set by the scenario-faults
     * middleware): the route passes on its delivery-fault policy, the journal reads its rules.
     */
    scenarioScope: RequestScope;
    /** The JSON body's text as the route read it (readJson): the journal keeps it without awaiting a second read. */
    requestText: string;
  };
}
