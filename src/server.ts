/**
 * startEmulator(options): createApp + a real HTTP server (port 0 allowed). Returns the
 * bound URL and a close() that ends open connections (SSE included) and flushes state.
 */
import { getRequestListener, type ServerType } from '@hono/node-server';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { ConfigError } from './domain/errors.js';
import { whenIdle } from './platform/when-idle.js';
import { createServedApp, type EmulatorApp, type ServedApp } from './app.js';
import type { CreateAppOptions } from './emulator.js';
import { createClient } from './client/index.js';
import { EmulatorOptionsSchema, retentionOf } from './config.js';
import type { EmulatorClient } from './client/types.js';

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:43127 */
  url: string;
  port: number;
  app: EmulatorApp;
  /** A control-plane client bound to this instance (admin token included). */
  client: EmulatorClient;
  /** The same client under the name docs/reference.md#running-it uses. */
  inspect: EmulatorClient;
  close(): Promise<void>;
}

/** The caps the data file's store needs (bad options are reported by createApp). */
function retentionLimits(options: CreateAppOptions) {
  const parsed = EmulatorOptionsSchema.safeParse(options);
  return parsed.success ? retentionOf(parsed.data) : {};
}

/**
 * Connections the kernel queues before the emulator accepts them (Node's default is 511; the
 * kernel caps it at net.core.somaxconn). A load test or a CI fleet opening a thousand
 * connections at once would otherwise overflow the queue, and each dropped SYN is retried
 * only after a second.
 */
const LISTEN_BACKLOG = 4096;

/**
 * What createAdaptorServer builds, with the send fast path in front (http/send-fast-path.ts):
 * a plain send skips hono's per-request objects; everything else goes to the app as any
 * server built on `getRequestListener(app.fetch)` would send it.
 */
export function emulatorListener(served: ServedApp): RequestListener {
  const listener = getRequestListener(served.app.fetch);
  return (req, res) => {
    // Read per request, not once: a test spies on it to see which requests it took.
    if (!served.sendFastPath(req, res)) void listener(req, res);
  };
}

/** --import FILE: the trace's state in place before the first request (a bad trace: ConfigError, exit 2). */
async function importAtStart(app: EmulatorApp): Promise<void> {
  const { emulator } = app;
  const file = emulator.options.importFile!;
  const { readTraceFile, TraceProblem, applyTrace } = await import('./trace/import-file.js');
  try {
    const trace = await readTraceFile(file);
    applyTrace(emulator, trace, trace.appId ?? undefined, basename(file));
  } catch (error) {
    if (error instanceof TraceProblem) throw new ConfigError(error.problems.map((p) => `--import ${p}`));
    throw error;
  }
}

/**
 * Loads faker (for `/__apps/{appId}/templates` samples) once the server has been idle for a
 * moment: its English data takes ~60 ms of the event loop to load, which the first visit to
 * an app's templates made every request meanwhile wait for. A server never idle loads it on
 * that first visit instead.
 */
function warmFakeData(): () => void {
  return whenIdle(() => void import('./platform/fake-data.js'));
}

export async function startEmulator(options: CreateAppOptions = {}): Promise<RunningEmulator> {
  // --data-file (docs/reference.md#running-it): state lives in a lowdb file; closed (flushed) by app.close().
  // Loaded only when used: lowdb is not needed on the common in-memory start (cold start, bench/).
  const openLowdbStore = async (...args: Parameters<typeof import('./store/lowdb-store.js').openLowdbStore>) =>
    (await import('./store/lowdb-store.js')).openLowdbStore(...args);
  let app: EmulatorApp | undefined;
  let served: ServedApp;
  // A write that fails in the background (disk full, folder removed) is retried with the next
  // change; the log says so once per different failure rather than once per retry.
  let lastWriteError: string | undefined;
  const onWriteError = (error: unknown) => {
    const message =
      `--data-file ${options.dataFile}: the state could not be saved (${(error as Error).message}); ` +
      `it is tried again with the next change.`;
    if (message !== lastWriteError) app?.emulator.logger.error(message);
    lastWriteError = message;
  };
  const store =
    options.store ??
    (options.dataFile
      ? await openLowdbStore(options.dataFile, { ...retentionLimits(options), onWriteError })
      : undefined);
  try {
    served = createServedApp(store ? { ...options, store } : options);
    app = served.app;
  } catch (error) {
    if (store && !options.store) await store.close();
    throw error;
  }
  if (app.emulator.options.importFile)
    await importAtStart(app).catch(async (error: unknown) => {
      await app!.close();
      throw error;
    });
  const { host, port } = app.emulator.options;
  let server: ServerType;
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server = createServer(emulatorListener(served));
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => resolve(server.address() as AddressInfo));
  }).catch(async (error: unknown) => {
    await app.close(); // e.g. port in use: stop watchers and flush the data file before failing
    throw error;
  });
  const stopWarming = warmFakeData();
  const shownHost = address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`;
  let closing: Promise<void> | undefined;
  const client = createClient({ url, adminToken: app.emulator.options.adminToken });
  return {
    url,
    port: address.port,
    app,
    client,
    inspect: client,
    close() {
      closing ??= (async () => {
        stopWarming();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive and SSE connections would hold close() open.
          (server as import('node:http').Server).closeAllConnections?.();
        });
        await app.close();
      })();
      return closing;
    },
  };
}

/** One account's app, templates and channels (fixture formats), for startAccountEmulator. */
export interface AccountToHold {
  appId: string;
  apiKey: string;
  templates: unknown[];
  channels: unknown[];
}

/**
 * An emulator holding exactly one account, as `verify` compares it with the live service: on
 * a free local port, only the account's templates and channels, its app alone with the
 * account's key (strict auth, as the live service is), no scenarios, nothing watched or logged.
 */
export async function startAccountEmulator(
  account: AccountToHold,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const running = await startEmulator({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    watch: false,
    templates: account.templates,
    channels: account.channels,
    scenarios: [],
    apps: [{ appId: account.appId, apiKey: account.apiKey }],
  });
  return { baseUrl: `${running.url}/v3/business-messaging`, close: () => running.close() };
}
