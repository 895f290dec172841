/**
 * startEmulator(options): createApp + a real HTTP server (port 0 allowed). Returns the
 * bound URL and a close() that ends open connections (SSE included) and flushes state.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp, type EmulatorApp } from './app.js';
import type { CreateAppOptions } from './emulator.js';
import { createClient } from './client/index.js';
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

export async function startEmulator(options: CreateAppOptions = {}): Promise<RunningEmulator> {
  // --data-file (docs/reference.md#running-it): state lives in a lowdb file; closed (flushed) by app.close().
  // Loaded only when used: lowdb is not needed on the common in-memory start (cold start, bench/).
  const openLowdbStore = async (...args: Parameters<typeof import('./store/lowdb-store.js').openLowdbStore>) =>
    (await import('./store/lowdb-store.js')).openLowdbStore(...args);
  const store =
    options.store ??
    (options.dataFile
      ? await openLowdbStore(options.dataFile, {
          maxDeliveries: options.maxDeliveries === undefined ? undefined : Number(options.maxDeliveries),
          maxJournal: options.maxJournal === undefined ? undefined : Number(options.maxJournal),
        })
      : undefined);
  let app: EmulatorApp;
  try {
    app = createApp(store ? { ...options, store } : options);
  } catch (error) {
    if (store && !options.store) await store.close();
    throw error;
  }
  const { host, port } = app.emulator.options;
  let server: ServerType;
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server = serve({ fetch: app.fetch, port, hostname: host }, (info) => resolve(info));
    server.once('error', reject);
  }).catch(async (error: unknown) => {
    await app.close(); // e.g. port in use: stop watchers and flush the data file before failing
    throw error;
  });
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
