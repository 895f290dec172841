/**
 * Model test: after any generated traffic (sends good and bad, campaigns, analytics, channels,
 * shared and per-app clock moves, global, per-app and header scenarios with probability
 * rules), exporting and importing into a fresh emulator gives back every view as it was; a
 * second export is the first but for its instant; the same traffic after it gives the same
 * answers and faults in both (ids, random draws) and new ids do not collide.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Campaign, Delivery, EmulatorApp } from '../../src/index.js';
import { call, callOk, makeTestApp, manualClock, type List } from '../helpers/app.js';
import { createCampaign, CTA_CELL, upload, waitForCampaignStatus } from '../helpers/campaigns.js';
import { exportText, observe } from './observe.js';
import { withChannel } from '../helpers/channels.js';

const SCENARIOS = [
  { name: 'fail-u1', rules: [{ match: { userId: 'u1*' }, fault: { failDelivery: 'device unreachable' } }] },
  {
    name: 'twice-busy',
    rules: [{ match: { path: '/api/notifications/send' }, fault: { error: 'ERR_TOO_MANY_REQUESTS' }, times: 2 }],
  },
  // Its draws come from each app's seeded source: an import must leave them where they were.
  { name: 'coin', rules: [{ match: { userId: 'u*' }, fault: { failDelivery: 'coin says no' }, probability: 0.5 }] },
];

const APPS = ['app-a', 'app-b'];
const as = (appId: string) => ({ appId, apiKey: `key-${appId}` });

type Step = (app: EmulatorApp) => Promise<unknown>;

const user = fc.constantFrom('u1', 'u2', 'u3', 'u10', 'x9');
const appId = fc.constantFrom(...APPS);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc
    .record({
      appId,
      users: fc.uniqueArray(user, { minLength: 1, maxLength: 4 }),
      key: fc.constantFrom('plain', 'greeting'),
    })
    .map(
      ({ appId: id, users, key }) =>
        (app: EmulatorApp) =>
          call(
            app,
            'POST',
            '/api/notifications/send',
            { template: { key, variables: { name: 'Ann' } }, targets: users, mode: 'batch' },
            as(id),
          ),
    ),
  appId.map((id) => (app: EmulatorApp) => call(app, 'POST', '/api/notifications/send', { template: {} }, as(id))),
  fc
    .record({ appId, users: fc.uniqueArray(user, { minLength: 1, maxLength: 3 }) })
    .map(({ appId: id, users }) => async (app: EmulatorApp) => {
      const c = await createCampaign(app, {}, as(id));
      await upload(
        app,
        ['user_id,customerName,cta', ...users.map((u) => `${u},Ann,${CTA_CELL}`)].join('\n'),
        c.id,
        as(id),
      );
      await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {}, as(id));
      // Failed when an active scenario failed every recipient (fail-u1 with only u1… users).
      await waitForCampaignStatus(app, c.id, ['sent', 'failed']);
    }),
  // A runtime template keeps the real service's fields (config, availability, sequence) beside ours.
  fc.record({ appId, name: fc.constantFrom('Promo', 'Digest'), sequence: fc.integer({ min: 1, max: 9 }) }).map(
    ({ appId: id, name, sequence }) =>
      async (app: EmulatorApp) =>
        call(
          app,
          'POST',
          '/api/templates',
          await withChannel(app, { name, config: { tone: name }, availability: 'always', sequence }, as(id)),
          as(id),
        ),
  ),
  fc.record({ appId, name: fc.constantFrom('Web', 'Phones') }).map(
    ({ appId: id, name }) =>
      (app: EmulatorApp) =>
        call(app, 'POST', '/api/channels', { name, type: 'push', templateType: 'ui' }, as(id)),
  ),
  fc
    .integer({ min: 1, max: 90_000 })
    .map((ms) => (app: EmulatorApp) => callOk(app, 'POST', '/__clock', { advanceMs: ms })),
  fc.record({ appId, ms: fc.integer({ min: 1, max: 90_000 }) }).map(
    ({ appId: id, ms }) =>
      (app: EmulatorApp) =>
        callOk(app, 'POST', `/__clock?appId=${id}`, { advanceMs: ms }),
  ),
  fc.record({ appId: fc.option(appId), names: fc.subarray(SCENARIOS.map((s) => s.name)) }).map(
    ({ appId: id, names }) =>
      (app: EmulatorApp) =>
        callOk(app, 'PUT', `/__scenarios/active${id ? `?appId=${id}` : ''}`, { names }),
  ),
  fc.record({ appId, users: fc.uniqueArray(user, { minLength: 1, maxLength: 4 }) }).map(
    ({ appId: id, users }) =>
      (app: EmulatorApp) =>
        call(
          app,
          'POST',
          '/api/notifications/send',
          { template: { key: 'plain' }, targets: users, mode: 'batch' },
          {
            ...as(id),
            headers: { 'x-emulator-scenario': 'coin' },
          },
        ),
  ),
  fc
    .record({ appId, eventType: fc.constantFrom('delivered', 'viewed') })
    .map(({ appId: id, eventType }) => async (app: EmulatorApp) => {
      const sent = await callOk<List<Delivery>>(app, 'GET', `/__inspect/deliveries?appId=${id}&limit=1`);
      const d = sent.items[0];
      if (d)
        await call(
          app,
          'POST',
          '/api/analytics/events',
          { campaignId: d.notificationId ?? d.campaignId, userId: d.userId, channelType: 'in_app', eventType },
          as(id),
        );
    }),
);

const fresh = () => makeTestApp({ clock: manualClock('2040-06-01T00:00:00Z'), scenarios: SCENARIOS });

describe('export → import round-trips', () => {
  it('gives back every view after generated traffic', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const original = makeTestApp({ clock: manualClock(), scenarios: SCENARIOS });
        for (const s of steps) await s(original);
        const before = await observe(original);
        const trace = await exportText(original);
        const copy = fresh();
        const imported = await call(copy, 'POST', '/__import?fileName=run.json', undefined, { raw: trace });
        expect(imported.status, JSON.stringify(imported.body)).toBe(200);
        expect(await observe(copy)).toEqual(before);
        // The copy's export (same start options) holds what the original's does, but for its instant
        // (records come back in the schema's key order: compared as JSON, not as text).
        const again = await exportText(copy);
        const { exportedAt: _a, ...copied } = JSON.parse(again) as Record<string, unknown>;
        const { exportedAt: _b, ...exported } = JSON.parse(trace) as Record<string, unknown>;
        expect(copied).toEqual(exported);
        // The same traffic after the import: the same answers, ids and (random) faults in both.
        const next = { template: { key: 'plain' }, targets: ['u1', 'u2', 'u3', 'u10', 'z'], mode: 'batch' };
        for (const id of [...APPS, 'app-c']) {
          for (const headers of [{}, { 'x-emulator-scenario': 'coin' }] as Record<string, string>[]) {
            const a = await call(original, 'POST', '/api/notifications/send', next, { ...as(id), headers });
            const b = await call(copy, 'POST', '/api/notifications/send', next, { ...as(id), headers });
            expect([b.status, b.body]).toEqual([a.status, a.body]);
          }
        }
        const deliveries = `/__inspect/deliveries?limit=10000`;
        expect(await callOk(copy, 'GET', deliveries)).toEqual(await callOk(original, 'GET', deliveries));
        const ids = (await callOk<List<Delivery>>(copy, 'GET', '/__inspect/deliveries?limit=10000')).items.map(
          (d) => d.id,
        );
        expect(new Set(ids).size).toBe(ids.length);
        await Promise.all([original.close(), copy.close()]);
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it('a second export is identical to the first except its instant', async () => {
    const app = makeTestApp({ clock: manualClock(), scenarios: SCENARIOS });
    await call(app, 'POST', '/api/notifications/send', {
      template: { key: 'plain' },
      targets: ['u1', 'u2'],
      mode: 'batch',
    });
    await callOk(app, 'POST', '/__clock?appId=app-a', { advanceMs: 60_000 });
    await callOk(app, 'PUT', '/__scenarios/active?appId=app-a', { names: ['coin'] });
    await call(app, 'POST', '/api/notifications/send', { template: { key: 'plain' }, targets: ['u2'] }, as('app-a'));
    const first = await exportText(app);
    const second = await exportText(app);
    const instant = (text: string) =>
      (JSON.parse(text.slice(0, text.indexOf('\n') - 1) + '}') as { exportedAt: string }).exportedAt;
    expect(instant(first)).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(second.replace(instant(second), 'T')).toBe(first.replace(instant(first), 'T'));
  });
});
