/**
 * Typed per-request state shared by middleware and routes, all of it set by this code (never
 * read from a library's private fields). Routes get their services from their table's
 * factory, not from here.
 */
import type { RequestScope } from '../scenario-engine/engine.js';
import type { RequestSeams } from './request-seams.js';
import type { UpstreamCall } from '../schemas/records.js';

/** The request body as this app read it, once: its text (a JSON route), or its bytes (an upload, a form). */
export type RequestBody = { text: string } | { bytes: Uint8Array };

/** The answer a route or the error renderer gave, as the journal keeps it (set by `answer`). */
export interface AnswerRecord {
  /** The body's text; null for an answer without a body. */
  text: string | null;
  /** The contract's error code of an error answer; null for a success or a raw scenario answer. */
  errorCode: string | null;
}

export interface AppEnv {
  /** What the transport gives a request (request-seams.ts): set by app.fetch, never by a library. */
  Bindings: RequestSeams;
  Variables: {
    /** The tenant of an API request, set by auth (absent on the control plane and before auth). */
    appId: string;
    /**
     * The scenario engine's answers for this API request (set by the scenario-faults
     * middleware): the route passes on its delivery-fault policy, the journal reads its rules.
     */
    scenarioScope: RequestScope;
    /** The body as read by whoever read it first (request-body.ts): the route, a scenario matcher, the journal. */
    requestBody: RequestBody;
    /** The answer as given (answer.ts): the journal keeps it without reading the Response back. */
    answer: AnswerRecord;
    /** Proxy mode: the call as forwarded to the live service (http/api/proxy.ts); the journal copies it. */
    upstream: UpstreamCall;
  };
}
