/**
 * Parallel tests share one emulator and stay apart: each uses its own app and its own
 * x-emulator-scenario header, runs its sends at the same time as the others
 * (describe.concurrent), and sees only its own faults, deliveries and journal entries.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Delivery, JournalEntry } from '../../src/index.js';
import { callOk, makeTestApp, send } from '../helpers/app.js';

const app = makeTestApp({
  scenarios: [
    { name: 'all-fail', rules: [{ match: { userId: '*' }, fault: { failDelivery: 'device gone' } }] },
    {
      name: 'once-error',
      rules: [{ match: { path: '/api/notifications/send' }, fault: { error: 'ERR_OPERATION_FAILED' }, times: 1 }],
    },
    {
      name: 'throttle',
      rules: [{ match: { path: '/api/notifications/send' }, fault: { rateLimit: { retryAfterSec: 9 } } }],
    },
    { name: 'slow', rules: [{ match: { path: '/api/notifications/send' }, fault: { delayMs: 30 } }] },
  ],
});
afterAll(() => app.close());

const batch = (prefix: string) => ({
  template: { key: 'plain' },
  targets: [`${prefix}-1`, `${prefix}-2`],
  mode: 'batch',
});

/** Four sends at once from `appId`, with the scenario header when given; their statuses. */
async function sendFour(appId: string, scenario?: string): Promise<number[]> {
  const headers = scenario ? { 'x-emulator-scenario': scenario } : undefined;
  const answers = await Promise.all([0, 1, 2, 3].map((i) => send(app, batch(`${appId}-${i}`), { appId, headers })));
  return answers.map((res) => res.status);
}

const deliveriesOf = (appId: string) =>
  callOk<{ total: number; items: Delivery[] }>(app, 'GET', `/__inspect/deliveries?appId=${appId}&limit=1000`);
const journalOf = (appId: string) =>
  callOk<{ total: number; items: JournalEntry[] }>(app, 'GET', `/__inspect/requests?appId=${appId}&limit=1000`);

describe.concurrent('parallel tests with different apps and scenario headers', () => {
  it('a failDelivery header fails only its own deliveries', async () => {
    expect(await sendFour('par-fail', 'all-fail')).toEqual([200, 200, 200, 200]);
    const { items } = await deliveriesOf('par-fail');
    expect(items).toHaveLength(8);
    expect(new Set(items.map((d) => `${d.status}/${d.scenario}`))).toEqual(new Set(['failed/all-fail']));
  });

  it('no header: every delivery is sent and no scenario shows in its journal', async () => {
    expect(await sendFour('par-plain')).toEqual([200, 200, 200, 200]);
    const { items } = await deliveriesOf('par-plain');
    expect(items).toHaveLength(8);
    expect(new Set(items.map((d) => `${d.status}/${d.scenario}`))).toEqual(new Set(['sent/null']));
    const journal = await journalOf('par-plain');
    expect(journal.items.map((e) => e.scenario)).toEqual([null, null, null, null]);
  });

  it('a times: 1 rule fires once for the test that names it, whatever runs beside it', async () => {
    const statuses = await sendFour('par-once', 'once-error');
    expect(statuses.filter((s) => s === 500)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect((await deliveriesOf('par-once')).total).toBe(6);
  });

  it('a rate-limit header throttles only its own sends', async () => {
    expect(await sendFour('par-rate', 'throttle')).toEqual([429, 429, 429, 429]);
    expect((await deliveriesOf('par-rate')).total).toBe(0);
    const journal = await journalOf('par-rate');
    expect(journal.items.map((e) => [e.status, e.scenario])).toEqual(Array(4).fill([429, 'throttle']));
  });

  it('a delay header slows only its own sends, which still deliver normally', async () => {
    expect(await sendFour('par-slow', 'slow')).toEqual([200, 200, 200, 200]);
    const { items } = await deliveriesOf('par-slow');
    expect(items.every((d) => d.status === 'sent' && d.scenario === null)).toBe(true);
    const journal = await journalOf('par-slow');
    expect(journal.items.every((e) => e.scenario === 'slow' && e.durationMs >= 25)).toBe(true);
  });
});
