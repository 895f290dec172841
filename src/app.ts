/**
 * createApp(options): one isolated emulator behind a Hono app. The API is mounted under
 * both /api and /v3/business-messaging/api; the control plane under /__. Exactly one
 * onError and one notFound, on this root app.
 */
import { Hono } from 'hono';
import { methodNotAllowed } from './domain/error-messages.js';
import { createEmulator, type CreateAppOptions, type Emulator } from './emulator.js';
import type { AppEnv } from './http/context.js';
import { errorResponse, onError, onNotFound } from './http/render-error.js';
import { allowedMethodsOf } from './http/method-not-allowed.js';
import { RememberingRouter } from './http/remembering-router.js';
import { journal } from './http/middleware/journal.js';
import { requestRecorder } from './http/journal-recorder.js';
import { journalStep } from './http/journal-step.js';
import { requestSeams } from './http/request-seams.js';
import { sendFastPath, type SendFastPath } from './http/send-fast-path.js';
import { sendPipeline } from './http/send-pipeline.js';
import { ConnectionDropped } from './http/middleware/scenario-faults.js';
import { apiRoutes } from './http/api/index.js';
import { controlRoutes } from './http/control/index.js';
import { wire } from './http/wiring.js';
import { wantsHtml } from './http/control/inspector.js';
import { createUpstream } from './upstream/proxy.js';

export const API_PREFIXES = ['/api', '/v3/business-messaging/api'] as const;

export type EmulatorApp = Hono<AppEnv> & {
  /** The instance behind the app: store, clock, services. */
  readonly emulator: Emulator;
  /** Stops timers and watchers and flushes the store. */
  close(): Promise<void>;
};

/** An app and the fast path its own server puts in front of it (server.ts). */
export interface ServedApp {
  app: EmulatorApp;
  /** Answers a plain send straight from Node's request, or returns false to leave it to the app. */
  sendFastPath: SendFastPath;
}

export function createApp(options: CreateAppOptions = {}): EmulatorApp {
  return createServedApp(options).app;
}

/** createApp plus the send fast path, sharing its send pipeline and journal (startEmulator's detail). */
export function createServedApp(options: CreateAppOptions = {}): ServedApp {
  const emulator = createEmulator(options);
  const app = new Hono<AppEnv>({ router: new RememberingRouter() });
  const openJournal = journalStep({
    record: requestRecorder(emulator),
    stopwatch: emulator.stopwatch,
    logger: emulator.logger,
  });
  const send = sendPipeline({ notifications: emulator.services.notifications, logger: emulator.logger });
  for (const prefix of API_PREFIXES) app.use(`${prefix}/*`, journal(openJournal));
  // Proxy mode (--upstream): the API forwards to the live service; /__health counts what it did.
  const upstream = createUpstream(emulator.options, emulator.stopwatch);
  const parts = wire(emulator, upstream);
  const api = apiRoutes(parts.api, send);
  for (const prefix of API_PREFIXES) app.route(prefix, api);
  app.route('/', controlRoutes(parts.control));
  // A scripted drop under app.request() has no socket: let its marker error reach the caller
  // (docs/reference.md#scenarios).
  const renderError = onError(emulator.logger);
  app.onError((error, c) => {
    if (error instanceof ConnectionDropped) throw error;
    return renderError(error, c);
  });
  const allowedMethods = allowedMethodsOf(app);
  app.notFound((c) => {
    // A browser opening the bare address lands on the web inspector; API clients keep the JSON 404.
    if (c.req.path === '/' && wantsHtml(c)) return c.redirect('/__/');
    const methods = allowedMethods(c.req.path);
    if (methods.length === 0 || methods.includes(c.req.method)) return onNotFound(c);
    return errorResponse(c, methodNotAllowed(c.req.method, c.req.path, methods.join(', ')));
  });
  // The transport's seams on c.env (http/request-seams.ts), made from what the caller's server
  // gives fetch: served by @hono/node-server (getRequestListener, serve) the app can drop a
  // connection and read Node's parsed headers; app.request() runs in process without them.
  const dispatch = app.fetch;
  const fetch: typeof app.fetch = (request, env, executionCtx) => dispatch(request, requestSeams(env), executionCtx);
  const served = Object.assign(app, { fetch, emulator, close: () => emulator.close() });
  // A proxy answers nothing itself: every send goes through the app to the live service.
  if (upstream !== null) return { app: served, sendFastPath: () => false };
  return {
    app: served,
    sendFastPath: sendFastPath({
      apps: emulator.apps,
      scenarios: emulator.scenarios,
      bodyLimitBytes: emulator.options.bodyLimitBytes,
      send,
      openJournal,
      prefixes: API_PREFIXES,
    }),
  };
}
