/**
 * startEmulator(options): createApp + a real HTTP server (port 0 allowed). Returns the
 * bound URL and a close() that ends open connections (SSE included) and flushes state.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp, type EmulatorApp } from './app.js';
import type { CreateAppOptions } from './emulator.js';

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:43127 */
  url: string;
  port: number;
  app: EmulatorApp;
  close(): Promise<void>;
}

export async function startEmulator(options: CreateAppOptions = {}): Promise<RunningEmulator> {
  const app = createApp(options);
  const { host, port } = app.emulator.options;
  let server: ServerType;
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server = serve({ fetch: app.fetch, port, hostname: host }, (info) => resolve(info));
    server.once('error', reject);
  });
  const shownHost = address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    app,
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
