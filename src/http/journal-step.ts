/**
 * The journal's step around one API request, written once for both transports: the journal
 * middleware around the Hono app (middleware/journal.ts) and the send fast path on Node's
 * request (send-fast-path.ts). A transport opens it when the request arrives and closes it
 * once: with the answer it sent, or with the client's hang-up. The step makes the entry (its
 * duration, both bodies decoded and capped, none for a hang-up) and, should the emulator fail
 * on the way (the journal's store, say), the answer the emulator's own bugs get.
 */
import type { Stopwatch } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';
import type { UpstreamCall } from '../schemas/records.js';
import type { AppliedRuleInfo, RequestScope } from '../scenario-engine/engine.js';
import { keptRequest, keptResponse, NO_BODY, type BodyRead, type Kept, type NOT_KEPT } from './journal-bodies.js';
import type { RequestRecorder } from './journal-recorder.js';
import { CLIENT_CLOSED_REQUEST, errorAnswer, type PlainAnswer } from './render-error.js';
import type { NodeHeaders } from './request-seams.js';

/** The request as it arrived. */
export interface RequestSeen {
  method: string;
  path: string;
  /** The URL's query string, without its "?". */
  query: string;
  /** As read (plain-headers.ts): never kept or changed, the journal keeps a masked copy. */
  headers: NodeHeaders;
}

/** What the transport answered, and for whom. */
export interface AnswerSent {
  appId: string | null;
  status: number;
  errorCode: string | null;
  /** The scenario rules that applied, in order (none: undefined or empty). */
  rules: readonly AppliedRuleInfo[] | undefined;
  /** How rules that apply after the answer (a campaign's failDelivery rules) reach the entry. */
  laterRules?: RequestScope['followRules'];
  /** Proxy mode: what the live service was asked and answered (absent for a call answered here). */
  upstream?: UpstreamCall | undefined;
}

/** Both bodies as the transport has them; the step decodes and caps them. */
export interface Bodies {
  request: BodyRead;
  /** The answer's text; NOT_KEPT when it could not be read back. */
  response: string | null | typeof NOT_KEPT;
}

export interface JournalStep {
  /** Records the answer. The bodies are asked for only when the entry keeps them (not for a 499). */
  answered(answer: AnswerSent, bodies: () => Bodies | Promise<Bodies>): void | Promise<void>;
  /** The client hung up before it was answered: nobody is left to answer, the entry says 499. */
  hungUp(who: Pick<AnswerSent, 'appId' | 'rules'>): void;
  /** The answer to the emulator's own failure on the way (logged as a bug): a 500 in the error envelope. */
  failed(thrown: unknown): PlainAnswer;
}

export interface JournalStepDeps {
  record: RequestRecorder;
  /** What request durations are measured on (the emulator's stopwatch). */
  stopwatch: Stopwatch;
  /** Where the emulator's own bugs are logged. */
  logger: Logger;
}

/** Opens the step for a request that just arrived (its duration starts now). */
export type OpenJournalStep = (request: RequestSeen) => JournalStep;

export const journalStep =
  (deps: JournalStepDeps): OpenJournalStep =>
  (request) =>
    new Step(deps, request, deps.stopwatch());

/** Milliseconds since `started` on `stopwatch` (the emulator's), to the hundredth. */
const durationSince = (stopwatch: Stopwatch, started: number): number =>
  Math.round((stopwatch() - started) * 100) / 100;

/** A class rather than closures: one object per request on the send's hot path. */
class Step implements JournalStep {
  constructor(
    private readonly deps: JournalStepDeps,
    private readonly request: RequestSeen,
    private readonly started: number,
  ) {}

  answered(answer: AnswerSent, bodies: () => Bodies | Promise<Bodies>): void | Promise<void> {
    const durationMs = durationSince(this.deps.stopwatch, this.started);
    // A 499's bodies may be unreadable (the client hung up mid-body) and nobody reads its answer.
    if (answer.status === CLIENT_CLOSED_REQUEST) return this.keep(answer, NO_BODY, NO_BODY, durationMs);
    const read = bodies();
    if (read instanceof Promise)
      return read.then((b) => this.keep(answer, keptRequest(b.request), keptResponse(b.response), durationMs));
    this.keep(answer, keptRequest(read.request), keptResponse(read.response), durationMs);
  }

  hungUp(who: Pick<AnswerSent, 'appId' | 'rules'>): void {
    const durationMs = durationSince(this.deps.stopwatch, this.started);
    this.keep({ ...who, status: CLIENT_CLOSED_REQUEST, errorCode: null }, NO_BODY, NO_BODY, durationMs);
  }

  failed(thrown: unknown): PlainAnswer {
    return errorAnswer(thrown, this.deps.logger, `${this.request.method} ${this.request.path}`);
  }

  private keep(answer: AnswerSent, request: Kept, response: Kept, durationMs: number): void {
    const { method, path, query, headers } = this.request;
    this.deps.record({ method, path, query, headers, ...answer, request, response, durationMs });
  }
}
