/**
 * A client that hangs up in the middle of its body: the request is journaled as 499 (as a
 * dropped connection is), never as a 500, and nothing is logged as an emulator bug.
 */
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** Sends the head and the first part of a body, then closes the socket. */
async function hangUpMidBody(url: string, path: string, headers: Record<string, string>, part: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const head = Object.entries({ host: 'localhost', ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${part}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  socket.destroy();
}

describe('client hang-up mid-body', () => {
  it('journals 499 for JSON sends and CSV uploads, logs no error, and keeps serving', async () => {
    const errors: string[] = [];
    const logger = { error: (m: string) => void errors.push(m), warn() {}, info() {}, debug() {} };
    emu = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logger });
    const auth = { appid: 'app-test', apikey: 'key-test' };
    await hangUpMidBody(
      emu.url,
      '/api/notifications/send',
      { ...auth, 'content-type': 'application/json', 'content-length': '5000' },
      '{"mode":"realtime","targets":["u1"',
    );
    const boundary = 'xyz';
    await hangUpMidBody(
      emu.url,
      '/v3/business-messaging/api/campaigns/upload',
      { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
      `40\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\n\r\nuser_id\r\n`,
    );
    await vi.waitFor(async () => {
      const journal = (await (await fetch(`${emu!.url}/__inspect/requests`)).json()) as {
        items: { status: number; errorCode: string | null }[];
      };
      expect(journal.items.map((e: { status: number; errorCode: string | null }) => [e.status, e.errorCode])).toEqual([
        [499, null],
        [499, null],
      ]);
    });
    expect(errors).toEqual([]);
    expect((await fetch(`${emu.url}/__health`)).status).toBe(200);
  });
});
