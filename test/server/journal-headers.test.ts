/**
 * Request headers over a real socket, where the gate and the journal read Node's parsed
 * headers (not the Request's Headers): names in any case, repeated headers joined, secrets
 * masked in the journal.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';
import type { JournalEntry } from '../../src/schemas/records.js';

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** node:http sends each value of an array as its own header line (fetch would join them first). */
function post(url: string, headers: Record<string, string | string[]>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('journal request headers over HTTP', () => {
  it('keeps every header lower-case, joins repeated ones and masks apikey and authorization', async () => {
    emu = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false });
    const body = JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
    const status = await post(
      `${emu.url}/api/notifications/send`,
      {
        appid: 'app-test',
        apikey: 'key-test',
        Authorization: 'Bearer secret',
        'Content-Type': 'application/json',
        'X-Trace': ['first', 'second'],
      },
      body,
    );
    expect(status).toBe(200);
    const journal = (await (await fetch(`${emu.url}/__inspect/requests`)).json()) as { items: JournalEntry[] };
    const [entry] = journal.items;
    expect(entry?.requestHeaders).toMatchObject({
      appid: 'app-test',
      apikey: '***',
      authorization: '***',
      'content-type': 'application/json',
      'x-trace': 'first, second',
    });
    expect(JSON.stringify(entry?.requestHeaders)).not.toContain('secret');
    expect(JSON.stringify(entry?.requestHeaders)).not.toContain('key-test');
    expect(entry?.requestBody).toBe(body);
  });

  it('reads the gate headers in any case and joins repeated lines as Headers.get would', async () => {
    emu = await startEmulator({
      port: 0,
      templates: TEST_TEMPLATES,
      watch: false,
      scenarios: ['first', 'second'].map((name, i) => ({
        name,
        description: `${name} for tests`,
        rules: [{ match: { path: '/api/notifications/send' }, fault: { status: 418 + i } }],
      })),
    });
    const body = JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
    const headers = { APPID: 'app-test', ApiKey: 'key-test', 'CONTENT-TYPE': 'Application/JSON; charset=utf-8' };
    expect(await post(`${emu.url}/api/notifications/send`, headers, body)).toBe(200);
    // Two header lines name two scenarios, as "second, first" would: the first listed applies.
    const repeated = { ...headers, 'X-Emulator-Scenario': ['second', 'first'] };
    expect(await post(`${emu.url}/api/notifications/send`, repeated, body)).toBe(419);
    // Both lines are read: an unknown name on the second one is refused.
    const unknown = { ...headers, 'X-Emulator-Scenario': ['first', 'nope'] };
    expect(await post(`${emu.url}/api/notifications/send`, unknown, body)).toBe(400);
    expect(await post(`${emu.url}/api/notifications/send`, { ...headers, APPID: '' }, body)).toBe(401);
  });

  it('keeps each request its own headers when entries share an identical set', async () => {
    emu = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false });
    const body = JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
    const headers = { appid: 'app-test', apikey: 'key-test', 'content-type': 'application/json' };
    const extras: Record<string, string>[] = [{}, {}, { 'x-trace': 'other' }];
    for (const extra of extras)
      expect(await post(`${emu.url}/api/notifications/send`, { ...headers, ...extra }, body)).toBe(200);
    // The same headers in another order are another set: an entry keeps them as they came.
    const reordered = { 'x-trace': 'other', ...headers };
    expect(await post(`${emu.url}/api/notifications/send`, reordered, body)).toBe(200);
    const journal = (await (await fetch(`${emu.url}/__inspect/requests`)).json()) as { items: JournalEntry[] };
    const [first, second, third, fourth] = journal.items.map((e) => e.requestHeaders);
    const order = (set: Record<string, string> | undefined) => Object.keys(set ?? {}).filter((n) => n in reordered);
    expect(order(third)).toEqual(['appid', 'apikey', 'content-type', 'x-trace']);
    expect(order(fourth)).toEqual(['x-trace', 'appid', 'apikey', 'content-type']);
    expect(first).toEqual(second);
    expect(first).not.toHaveProperty('x-trace');
    expect(third).toMatchObject({ appid: 'app-test', apikey: '***', 'x-trace': 'other' });
    // In the store the two identical sets are one object, frozen so no reader can change both.
    const kept = emu.app.emulator.store.queryJournal({}, { offset: 0, limit: 3 }).items.map((e) => e.requestHeaders);
    expect(kept[0]).toBe(kept[1]);
    expect(kept[2]).not.toBe(kept[0]);
    expect(Object.isFrozen(kept[0])).toBe(true);
  });

  it('keeps each answer its own response body', async () => {
    emu = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false });
    const headers = { appid: 'app-test', apikey: 'key-test', 'content-type': 'application/json' };
    const answers: string[] = [];
    for (const targets of [['u1'], ['u1', 'u2'], ['nobody', 'u1', 'u2']]) {
      const body = JSON.stringify({
        template: { key: 'plain' },
        targets,
        mode: targets.length > 1 ? 'batch' : 'realtime',
      });
      const res = await fetch(`${emu.url}/api/notifications/send`, { method: 'POST', headers, body });
      answers.push(await res.text());
    }
    const journal = (await (await fetch(`${emu.url}/__inspect/requests`)).json()) as { items: JournalEntry[] };
    expect(journal.items.map((e) => e.responseBody)).toEqual(answers);
  });

  it('does not read a refused chunked body: kept as null and flagged, as a large one', async () => {
    emu = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false });
    const status = await new Promise<number>((resolve, reject) => {
      // No Content-Length: node:http sends the body chunked.
      const req = http.request(`${emu!.url}/api/notifications/send`, {
        method: 'POST',
        headers: { appid: 'app-test', 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.write('{"template": ');
      req.end('{"key": "plain"}}');
    });
    expect(status).toBe(401);
    const journal = (await (await fetch(`${emu.url}/__inspect/requests`)).json()) as { items: JournalEntry[] };
    expect(journal.items[0]).toMatchObject({
      status: 401,
      requestHeaders: { 'transfer-encoding': 'chunked' },
      requestBody: null,
      requestBodyTruncated: true,
    });
  });
});
