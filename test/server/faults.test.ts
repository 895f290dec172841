/**
 * Faults that need a real socket (docs/reference.md#scenarios): a drop closes the connection without an
 * answer, and a delay answers normally (or faults) afterwards.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';

const AUTH = { appid: 'app-test', apikey: 'key-test', 'content-type': 'application/json' };
const PLAIN = JSON.stringify({ template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
const SCENARIOS = [
  {
    name: 'create-drop',
    rules: [{ match: { method: 'POST', path: '/api/notifications/send' }, fault: { drop: true }, times: 1 }],
  },
  { name: 'slow', rules: [{ match: { path: '/api/notifications/send' }, fault: { delayMs: 30 } }] },
  {
    name: 'slow-fail',
    rules: [{ match: { path: '/api/notifications/send' }, fault: { delayMs: 30, error: 'ERR_OPERATION_FAILED' } }],
  },
];

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});
const start = (activeScenarios: string[]) =>
  startEmulator({
    port: 0,
    templates: TEST_TEMPLATES,
    scenarios: SCENARIOS,
    activeScenarios,
    watch: false,
    logLevel: 'silent',
  });
const post = (scenario?: string) =>
  fetch(`${emu!.url}/v3/business-messaging/api/notifications/send`, {
    method: 'POST',
    headers: scenario ? { ...AUTH, 'x-emulator-scenario': scenario } : AUTH,
    body: PLAIN,
  });

describe('faults over a real socket', () => {
  it('closes the connection without an answer on a drop, then works once the rule is spent', async () => {
    emu = await start(['create-drop']);
    await expect(post()).rejects.toThrow(/fetch failed/);
    const next = await post();
    expect(next.status).toBe(200);
    const journal = (await (await fetch(`${emu.url}/__inspect/requests?scenario=create-drop`)).json()) as {
      items: unknown[];
    };
    expect(journal.items[0]).toMatchObject({
      status: 499,
      scenario: 'create-drop',
      rule: expect.stringContaining('drop the connection'),
    });
  });

  it('drops only the request that names the scenario in its header', async () => {
    emu = await start([]);
    const [dropped, normal] = await Promise.allSettled([post('create-drop'), post()]);
    expect(dropped.status).toBe('rejected');
    expect(normal.status === 'fulfilled' && normal.value.status).toBe(200);
  });

  it('answers normally after a delay-only rule', async () => {
    emu = await start(['slow']);
    const res = await post();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ notificationId: expect.stringMatching(/^notif_/) });
  });

  it('delays then answers the fault when delayMs joins an error', async () => {
    emu = await start(['slow-fail']);
    const res = await post();
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ERR_OPERATION_FAILED');
  });
});
