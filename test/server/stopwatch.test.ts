/**
 * The injected stopwatch (CreateAppOptions.stopwatch): the journal's durations, on the send fast
 * path and through the middleware alike, and /__health's uptime read it, so a test (or the
 * screenshot generator) can fix them; without one they are real milliseconds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import type { JournalEntry } from '../../src/schemas/records.js';
import { TEST_TEMPLATES } from '../helpers/app.js';

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const HEADERS = { appid: 'app-test', apikey: 'key-test', 'content-type': 'application/json' };
const SEND = JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });

async function sendAndList(url: string): Promise<JournalEntry[]> {
  // A realtime JSON send with a content-length: the fast path takes it (test/server/send-fast-path.test.ts).
  expect((await fetch(`${url}/api/notifications/send`, { method: 'POST', headers: HEADERS, body: SEND })).status).toBe(
    200,
  );
  // Any other API call goes through the journal middleware.
  expect((await fetch(`${url}/api/templates`, { headers: HEADERS })).status).toBe(200);
  const journal = (await (await fetch(`${url}/__inspect/requests`)).json()) as { items: JournalEntry[] };
  return journal.items;
}

describe('the stopwatch request durations and uptime are read from', () => {
  it('is the injected one when given: every duration one step, uptime the steps since start', async () => {
    let reads = 0;
    const stopwatch = () => 1_000 + 4 * reads++; // each read 4 ms after the one before
    emu = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent', stopwatch });
    const entries = await sendAndList(emu.url);
    expect(entries.map((e) => [e.path, e.durationMs])).toEqual([
      ['/api/notifications/send', 4],
      ['/api/templates', 4],
    ]);
    // read at start, twice per request, and once now: 5 reads after the start one
    const health = (await (await fetch(`${emu.url}/__health`)).json()) as { uptimeMs: number };
    expect(health.uptimeMs).toBe(20);
  });

  it('is real time by default: durations measured, never negative', async () => {
    emu = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    const entries = await sendAndList(emu.url);
    expect(entries).toHaveLength(2);
    for (const e of entries) {
      expect(e.durationMs).toBeGreaterThanOrEqual(0);
      expect(e.durationMs).toBeLessThan(10_000);
    }
    const health = (await (await fetch(`${emu.url}/__health`)).json()) as { uptimeMs: number };
    expect(health.uptimeMs).toBeGreaterThan(0);
  });
});
