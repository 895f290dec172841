/**
 * The server's fast path for `POST …/notifications/send` (under both prefixes): Node I/O
 * around the send pipeline (http/send-pipeline.ts), without hono's Request, Context,
 * middleware chain and Response objects. It is the one call a load test repeats, and those
 * objects cost more than the send itself (docs/performance.md#realtime-throughput-the-send-lane).
 * startEmulator and the CLI put it in front of the app; an app served any other way answers
 * the same through its Hono route.
 *
 * It decides only whether it may take a request, by the gate's own functions, and takes it
 * only when nothing else can happen to it:
 *
 * - no scenario is active and none is named in the request's header (a rule may delay,
 *   refuse or drop it, or look at its body);
 * - the body declares its length, within the limit, and is JSON by its content type;
 * - the headers authenticate.
 *
 * Anything else (a refusal of those checks included) goes to the app. What the answer is,
 * is the pipeline's; the journal entry, the 499 on a hang-up and the answer to the emulator's
 * own bugs are the journal step's (journal-step.ts), as for the app.
 * `test/server/send-fast-path.test.ts` sends the same requests through both and compares
 * answers and journal entries.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppRegistry } from '../catalog/apps.js';
import type { ScenarioEngine } from '../scenario-engine/engine.js';
import { authenticatedApp } from './middleware/auth.js';
import { declaredSize } from './middleware/body-limit.js';
import { bodyText } from './journal-bodies.js';
import type { OpenJournalStep } from './journal-step.js';
import { SCENARIO_HEADER } from './middleware/scenario-faults.js';
import { nodeHeader } from './plain-headers.js';
import type { NodeHeaders } from './request-seams.js';
import type { PlainAnswer } from './render-error.js';
import type { SendPipeline } from './send-pipeline.js';
import { isJsonContentType } from './validate.js';

/** Serves the request and returns true, or returns false and leaves it untouched for the app. */
export type SendFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

function reply(res: ServerResponse, { status, headers, body }: PlainAnswer): void {
  res.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export interface SendFastPathDeps {
  apps: AppRegistry;
  scenarios: ScenarioEngine;
  bodyLimitBytes: number;
  send: SendPipeline;
  /** The journal's step, the app's own (app.ts). */
  openJournal: OpenJournalStep;
  /** Where the API is mounted (app.ts). */
  prefixes: readonly string[];
}

export function sendFastPath(deps: SendFastPathDeps): SendFastPath {
  const { apps, scenarios, bodyLimitBytes, send, openJournal } = deps;
  const sendPaths = new Set(deps.prefixes.map((prefix) => `${prefix}/notifications/send`));

  return (req, res) => {
    const path = req.url;
    if (req.method !== 'POST' || path === undefined || !sendPaths.has(path)) return false;
    const headers = req.headers as NodeHeaders;
    const header = (name: string) => nodeHeader(headers, name);
    // Whatever these checks refuse is the app's to answer: the request goes there untouched.
    if (declaredSize(header, bodyLimitBytes) !== 'within') return false;
    if (header(SCENARIO_HEADER) !== undefined) return false;
    const contentType = header('content-type') ?? '';
    if (!isJsonContentType(contentType)) return false;
    let appId: string;
    try {
      appId = authenticatedApp(apps, header);
    } catch {
      return false;
    }
    // A send's deliveries are made before it is answered, so while no scenario is active for
    // the app no rule can touch them (idleScope).
    const scope = scenarios.idleScope(appId);
    if (scope === undefined) return false;

    const step = openJournal({ method: 'POST', path, query: '', headers });
    const chunks: Buffer[] = [];
    let ended = false;
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      ended = true;
      try {
        const text = bodyText(chunks);
        // Synchronous: the body is at hand.
        const sent = send({ path, appId, contentType, deliveryFaults: scope.deliveryFaults }, text);
        // Journaled before the answer leaves, as the app does: a client that reads the journal
        // once answered finds its request there.
        const { status, errorCode } = sent;
        void step.answered({ appId, status, errorCode, rules: scope.appliedRules() }, () => ({
          request: { text },
          response: sent.body,
        }));
        reply(res, sent);
      } catch (error) {
        // A fault of the fast path itself (the journal's store, say): answered as the app
        // answers its own bugs rather than left to crash the process.
        if (res.headersSent) res.destroy();
        else reply(res, step.failed(error));
      }
    });
    // The client hung up before its body was read to the end: nobody is left to answer.
    req.on('close', () => {
      if (!ended) step.hungUp({ appId, rules: scope.appliedRules() });
    });
    return true;
  };
}
