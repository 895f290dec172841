/**
 * One app's trace: GET /__export?appId holds that app's records, its own clock and its
 * scenario state (own set, counters, header activations, random draws); POST /__import?appId
 * replaces that app's and leaves every other app, the shared clock and global set alone.
 */
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../src/index.js';
import { call, callOk, expectApiError, makeTestApp, manualClock, type List } from '../helpers/app.js';
import { exportText } from './observe.js';

const as = (appId: string) => ({ appId, apiKey: `key-${appId}` });
const sendBody = (targets: string[]) => ({ template: { key: 'plain' }, targets, mode: 'batch' });
const COIN = { name: 'coin', rules: [{ match: { userId: 'u*' }, fault: { failDelivery: 'no' }, probability: 0.5 }] };
const importText = (app: ReturnType<typeof makeTestApp>, text: string, query = '') =>
  call(app, 'POST', `/__import${query}`, undefined, { raw: text });

async function withTraffic() {
  const app = makeTestApp({ clock: manualClock(), scenarios: [COIN] });
  await call(app, 'POST', '/api/notifications/send', sendBody(['u1', 'u2']), as('app-a'));
  await call(app, 'POST', '/api/notifications/send', sendBody(['u3']), as('app-b'));
  return app;
}

describe('one app', () => {
  it('GET /__export?appId holds that app only, and ?appId on import replaces that app only', async () => {
    const source = await withTraffic();
    const trace = await exportText(source, '?appId=app-a');
    const parsed = JSON.parse(trace) as { appId: string; deliveries: { appId: string }[] };
    expect(parsed.appId).toBe('app-a');
    expect(parsed.deliveries.map((d) => d.appId)).toEqual(['app-a', 'app-a']);

    const target = makeTestApp({ clock: manualClock(), scenarios: [] });
    await call(target, 'POST', '/api/notifications/send', sendBody(['b-own']), as('app-b'));
    await call(target, 'POST', '/api/notifications/send', sendBody(['a-old']), as('app-a'));
    const bBefore = await call(target, 'GET', '/__inspect/deliveries?appId=app-b');
    const res = await importText(target, trace, '?appId=app-a&fileName=a.json');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await call(target, 'GET', '/__inspect/deliveries?appId=app-b')).body).toEqual(bBefore.body);
    expect((await call(target, 'GET', '/__inspect/deliveries?appId=app-a')).body).toEqual(
      (await call(source, 'GET', '/__inspect/deliveries?appId=app-a')).body,
    );
    expect((await call(target, 'GET', '/__health')).body).toMatchObject({
      trace: { fileName: 'a.json', appId: 'app-a', exportedAt: expect.any(String) },
    });
    // Another app's trace is not taken for this one.
    const wrong = await importText(target, trace, '?appId=app-b');
    expect(expectApiError(wrong, 400, 'ERR_BAD_REQUEST').devMessage).toMatch(/holds app "app-a" only/);
  });

  it('answers content-disposition with the instant in the file name, and keys masked', async () => {
    const app = makeTestApp({ apps: [{ appId: 'app-a', apiKey: 'very-secret' }], adminToken: 'tok', scenarios: [] });
    const res = await app.request('/__export', { headers: { authorization: 'Bearer tok' } });
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="notification-emulator-trace-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json"$/,
    );
    const text = await res.text();
    expect(text).not.toContain('very-secret');
    expect(text).not.toContain('"tok"');
    expect(JSON.parse(text)).toMatchObject({
      apps: [{ appId: 'app-a', apiKey: '***' }],
      options: { adminTokenRequired: true },
    });
  });

  it("carries the app's own clock and scenario state, and leaves the shared ones alone", async () => {
    const source = await withTraffic();
    await callOk(source, 'POST', '/__clock?appId=app-a', { advanceMs: 3_600_000 });
    await callOk(source, 'PUT', '/__scenarios/active?appId=app-a', { names: ['coin'] });
    const users = Array.from({ length: 12 }, (_, i) => `u${i}`);
    await call(source, 'POST', '/api/notifications/send', sendBody(users), as('app-a'));
    const headers = { 'x-emulator-scenario': 'coin' };
    await call(source, 'POST', '/api/notifications/send', sendBody(users), { ...as('app-a'), headers });
    const trace = await exportText(source, '?appId=app-a');
    expect(JSON.parse(trace)).toMatchObject({
      clocks: { apps: { 'app-a': { mode: 'manual', now: '2030-01-01T01:00:00.000Z' } } },
      scenarios: { active: { apps: { 'app-a': ['coin'] } }, headerActivated: { 'app-a': ['coin'] } },
    });

    const target = makeTestApp({ clock: manualClock('2031-01-01T00:00:00Z'), scenarios: [COIN] });
    await callOk(target, 'PUT', '/__scenarios/active', { names: [] });
    await callOk(target, 'POST', '/__clock?appId=app-b', { advanceMs: 5 });
    const shared = {
      clock: await callOk(target, 'GET', '/__clock'),
      b: await callOk(target, 'GET', '/__clock?appId=app-b'),
    };
    expect((await importText(target, trace, '?appId=app-a')).status).toBe(200);
    for (const path of [
      '/__clock?appId=app-a',
      '/__scenarios?appId=app-a',
      '/__inspect/deliveries?appId=app-a&limit=100',
    ])
      expect(await callOk(target, 'GET', path), path).toEqual(await callOk(source, 'GET', path));
    expect({
      clock: await callOk(target, 'GET', '/__clock'),
      b: await callOk(target, 'GET', '/__clock?appId=app-b'),
    }).toEqual(shared);
    // The app's random draws go on from where they were: the same sends fail the same users.
    for (const app of [source, target])
      await call(app, 'POST', '/api/notifications/send', sendBody(users), as('app-a'));
    // (its own ids differ: one app's import keeps the running id sequence)
    const failed = async (app: typeof source) =>
      (await callOk<List<Delivery>>(app, 'GET', '/__inspect/deliveries?appId=app-a&status=failed&limit=100')).items.map(
        (d) => [d.userId, d.createdAt],
      );
    expect(await failed(target)).toEqual(await failed(source));
  });

  it('refuses an app strict mode does not know, and an empty appId', async () => {
    const source = await withTraffic();
    const trace = await exportText(source, '?appId=app-a');
    const strict = makeTestApp({ apps: [{ appId: 'app-b', apiKey: 'k' }], scenarios: [] });
    expectApiError(await importText(strict, trace), 404, 'ERR_NOT_FOUND');
    expectApiError(await importText(strict, trace, '?appId='), 400, 'ERR_BAD_REQUEST');
    expectApiError(await call(strict, 'GET', '/__export?appId=app-a'), 404, 'ERR_NOT_FOUND');
  });
});
