/**
 * The send lane: `POST /api/notifications/send` (under both prefixes) answered straight from
 * Node's request and response, without hono's Request, Context, middleware chain and
 * Response objects. It is the one call a load test repeats, and those objects cost more
 * than the send itself: hono's own per-request work is about a third of a bare hono route
 * (docs/performance.md#realtime-throughput-the-send-lane).
 *
 * It runs the same steps as the app, from the same functions: auth (authenticatedApp), the
 * scenario scope (engine.idleScope), the JSON reading (parseJsonText), the
 * schema (parseWith), the domain's send, the error envelope (asApiError) and the journal
 * (RequestRecorder). It takes a request only when nothing else can happen to it:
 *
 * - no scenario is active and none is named in the request's header (a rule may delay,
 *   refuse or drop it, or look at its body);
 * - the body declares its length, within the limit, and is JSON by its content type;
 * - the headers authenticate.
 *
 * Anything else (a refusal of those checks included) goes to the app, which gives the
 * answer it always gave. The lane answers a send's own failures (bad JSON, a schema or
 * domain error) with the envelope the app would give. `test/server/send-lane.test.ts` sends the
 * same requests through both and compares answers and journal entries.
 */
import { isAscii } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Emulator } from '../emulator.js';
import type { DeliveryFaultPolicy } from '../domain/ports.js';
import { realNow } from '../platform/clock.js';
import { SendNotificationBodySchema } from '../schemas/notifications.js';
import { authenticatedApp } from './middleware/auth.js';
import { durationSince, keptText, type RequestRecorder } from './middleware/journal.js';
import { SCENARIO_HEADER } from './middleware/scenario-faults.js';
import { nodeHeader, type NodeHeaders } from './plain-headers.js';
import { asApiError, CLIENT_CLOSED_REQUEST } from './render-error.js';
import { isJsonContentType, parseJsonText, parseWith } from './validate.js';

/** Writes a JSON answer as hono's c.json and @hono/node-server would (extra headers first, as c.json merges them). */
function reply(res: ServerResponse, status: number, headers: Record<string, string> | undefined, json: string): void {
  res.writeHead(status, { 'Content-Type': JSON_TYPE, ...headers, 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

/** Serves the request and returns true, or returns false and leaves it untouched for the app. */
export type SendLane = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What hono's c.json and @hono/node-server send with a JSON answer. */
const JSON_TYPE = 'application/json';

const decoder = new TextDecoder();

/**
 * The body as the app reads it: UTF-8, a leading BOM dropped, invalid bytes replaced. Bytes
 * that are all ASCII (nearly every JSON body) read the same as Latin-1, which is a plain copy
 * per chunk, without joining the chunks first: a 10,000-target batch body takes ~15 µs so,
 * against ~160 µs joined and decoded (docs/performance.md#batch-send).
 */
function bodyText(chunks: readonly Buffer[]): string {
  let text = '';
  for (const chunk of chunks) {
    if (!isAscii(chunk)) return decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    text += chunk.toString('latin1');
  }
  return text;
}

/** `prefixes`: where the API is mounted (app.ts). */
export function sendLane(emulator: Emulator, record: RequestRecorder, prefixes: readonly string[]): SendLane {
  const { apps, scenarios, logger, options } = emulator;
  const { notifications } = emulator.services;
  const sendPaths = new Set(prefixes.map((prefix) => `${prefix}/notifications/send`));

  /** The app's answer to this send, and what the journal keeps of it. */
  function answer(path: string, appId: string, text: string, deliveryFaults: DeliveryFaultPolicy) {
    try {
      const body = parseWith(SendNotificationBodySchema, parseJsonText(text), 'request body');
      return {
        status: 200,
        errorCode: null,
        headers: undefined,
        json: JSON.stringify(notifications.send(appId, body, deliveryFaults)),
      };
    } catch (thrown) {
      const error = asApiError(thrown, logger, `POST ${path}`);
      return {
        status: error.status,
        errorCode: error.code,
        headers: error.headers,
        json: JSON.stringify(error.toBody()),
      };
    }
  }

  return (req, res) => {
    const path = req.url;
    if (req.method !== 'POST' || path === undefined || !sendPaths.has(path)) return false;
    const headers = req.headers as NodeHeaders;
    const header = (name: string) => nodeHeader(headers, name);
    // Whatever these checks refuse is the app's to answer: the request goes there untouched.
    const length = header('content-length');
    if (length === undefined || header('transfer-encoding') !== undefined) return false;
    if (!(Number.parseInt(length, 10) <= options.bodyLimitBytes)) return false;
    if (header(SCENARIO_HEADER) !== undefined) return false;
    // A send's deliveries are made before it is answered, so while no scenario is active
    // no rule can touch them (idleScope).
    const scope = scenarios.idleScope();
    if (scope === undefined) return false;
    if (!isJsonContentType(header('content-type') ?? '')) return false;
    let appId: string;
    try {
      appId = authenticatedApp(apps, header);
    } catch {
      return false;
    }

    const started = realNow();
    const journal = (status: number, errorCode: string | null, request: string | null, response: string | null) =>
      record({
        method: 'POST',
        path,
        query: '',
        appId,
        status,
        errorCode,
        rules: scope.appliedRules(),
        headers,
        request: keptText(request),
        response: keptText(response),
        durationMs: durationSince(started),
      });

    const chunks: Buffer[] = [];
    let ended = false;
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      ended = true;
      try {
        const text = bodyText(chunks);
        const result = answer(path, appId, text, scope.deliveryFaults);
        // Journaled before the answer leaves, as the app does: a client that reads the journal
        // once answered finds its request there.
        journal(result.status, result.errorCode, text, result.json);
        reply(res, result.status, result.headers, result.json);
      } catch (error) {
        // A fault of the lane itself (the journal's store, say): answered as the app answers
        // its own bugs rather than left to crash the process.
        const failure = asApiError(error, logger, `POST ${path}`);
        if (res.headersSent) res.destroy();
        else reply(res, failure.status, failure.headers, JSON.stringify(failure.toBody()));
      }
    });
    // The client hung up before its body was read to the end: nobody is left to answer,
    // and the journal records 499, as the app does.
    req.on('close', () => {
      if (!ended) journal(CLIENT_CLOSED_REQUEST, null, null, null);
    });
    return true;
  };
}
