/**
 * An app's own scenario activation (`/__scenarios…?appId=`): its own set alone applies to its
 * requests and deliveries, with its own counters (header counters too) and its own random
 * draws; a reset of the app puts it back on the global set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorApp } from '../../src/index.js';
import { call, callOk, errorOf, expectApiError, makeTestApp, type CallOptions } from '../helpers/app.js';
import { createCampaign, orderCsv, upload } from '../helpers/campaigns.js';

let app: EmulatorApp;
afterEach(() => app?.close());

const OUTAGE = {
  name: 'upload-outage',
  rules: [
    { match: { method: 'POST', path: '/api/campaigns/upload' }, fault: { error: 'ERR_OPERATION_FAILED' }, times: 2 },
  ],
};
const COIN = {
  name: 'coin',
  rules: [{ match: { path: '/api/campaigns' }, fault: { error: 'ERR_OPERATION_FAILED' }, probability: 0.5 }],
};

interface RuleCounts {
  matched: number;
  applied: number;
  remaining: number | null;
}
interface ScenarioList {
  active: string[];
  appId?: string;
  scope?: 'app' | 'global';
  scenarios: { name: string; active: boolean; rules: RuleCounts[] }[];
  headerActivated: { name: string; rules: RuleCounts[] }[];
}

const listOf = (query = '') => callOk<ScenarioList>(app, 'GET', `/__scenarios${query}`);
const ruleOf = (list: { scenarios: ScenarioList['scenarios'] }, name: string) =>
  list.scenarios.find((s) => s.name === name)!.rules[0]!;

/** Uploads a CSV to a fresh campaign of `appId`; the status. */
async function uploadStatus(appId: string, options: CallOptions = {}): Promise<number> {
  const campaign = await createCampaign(app, {}, { appId });
  return (await upload(app, orderCsv(['u1']), campaign.id, { ...options, appId })).status;
}

describe('/__scenarios?appId=', () => {
  it("an app's own set alone applies to it, with its own counters", async () => {
    app = makeTestApp({ scenarios: [OUTAGE, COIN] });
    const set = await callOk(app, 'PUT', '/__scenarios/active?appId=app-a', { names: ['upload-outage'] });
    expect(set).toEqual({ active: ['upload-outage'], appId: 'app-a', scope: 'app' });
    expect(await uploadStatus('app-a')).toBe(500);
    expect(await uploadStatus('app-b')).toBe(200); // not active for app-b
    // Something switched on globally does not reach app-a (its own set rules it).
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['coin'] });
    for (let i = 0; i < 6; i++)
      expect((await call(app, 'GET', '/api/campaigns', undefined, { appId: 'app-a' })).status).toBe(200);

    const mine = await listOf('?appId=app-a');
    expect(mine).toMatchObject({ active: ['upload-outage'], appId: 'app-a', scope: 'app' });
    expect(ruleOf(mine, 'upload-outage')).toMatchObject({ matched: 1, applied: 1, remaining: 1 });
    expect(mine.scenarios.find((s) => s.name === 'coin')!.active).toBe(false);
    const global = await listOf();
    expect(global.active).toEqual(['coin']);
    expect(ruleOf(global, 'upload-outage')).toMatchObject({ matched: 0, applied: 0 });
    expect(await listOf('?appId=app-b')).toMatchObject({ active: ['coin'], scope: 'global' });

    // Its counters alone restart; then DELETE puts it back on the global set.
    await callOk(app, 'POST', '/__scenarios/reset?appId=app-a');
    expect(ruleOf(await listOf('?appId=app-a'), 'upload-outage')).toMatchObject({ matched: 0, remaining: 2 });
    expect(await callOk(app, 'DELETE', '/__scenarios/active?appId=app-a')).toEqual({
      active: ['coin'],
      appId: 'app-a',
      scope: 'global',
    });
    expect(await uploadStatus('app-a')).toBe(200);
  });

  it('header-activated counters are per app', async () => {
    app = makeTestApp({ scenarios: [OUTAGE] });
    const headers = { 'x-emulator-scenario': 'upload-outage' };
    expect(await uploadStatus('app-a', { headers })).toBe(500);
    expect(await uploadStatus('app-a', { headers })).toBe(500);
    expect(await uploadStatus('app-a', { headers })).toBe(200); // times: 2 used up for app-a…
    expect(await uploadStatus('app-b', { headers })).toBe(500); // …not for app-b
    const a = await listOf('?appId=app-a');
    expect(a.headerActivated[0]!.rules[0]).toMatchObject({ matched: 3, applied: 2 });
    expect((await listOf('?appId=app-b')).headerActivated[0]!.rules[0]).toMatchObject({ matched: 1, applied: 1 });
    expect((await listOf()).headerActivated[0]!.rules[0]).toMatchObject({ matched: 4, applied: 3 }); // all apps
    const one = await callOk<{ headerRules: RuleCounts[] }>(app, 'GET', '/__scenarios/upload-outage?appId=app-b');
    expect(one.headerRules[0]).toMatchObject({ matched: 1 });
  });

  it("probability draws are per app: an app's sequence does not depend on other apps", async () => {
    const outcomes = async (noise: boolean): Promise<number[]> => {
      app = makeTestApp({ scenarios: [COIN], seed: 42 });
      await callOk(app, 'PUT', '/__scenarios/active', { names: ['coin'] });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        if (noise) await call(app, 'GET', '/api/campaigns', undefined, { appId: `noise-${i % 3}` });
        statuses.push((await call(app, 'GET', '/api/campaigns', undefined, { appId: 'app-a' })).status);
      }
      await app.close();
      return statuses;
    };
    const alone = await outcomes(false);
    expect(new Set(alone)).toEqual(new Set([200, 500]));
    expect(await outcomes(true)).toEqual(alone);
  });

  it('POST /__reset?appId= returns the app to the global set and restores its counters', async () => {
    app = makeTestApp({ scenarios: [OUTAGE] });
    await callOk(app, 'PUT', '/__scenarios/active?appId=app-a', { names: ['upload-outage'] });
    await callOk(app, 'PUT', '/__scenarios/active?appId=app-b', { names: ['upload-outage'] });
    expect(await uploadStatus('app-a')).toBe(500);
    await callOk(app, 'POST', '/__reset?appId=app-a');
    expect(await listOf('?appId=app-a')).toMatchObject({ active: [], scope: 'global' });
    expect(ruleOf(await listOf('?appId=app-a'), 'upload-outage')).toMatchObject({ matched: 0 });
    expect((await listOf('?appId=app-b')).scope).toBe('app');
    await callOk(app, 'POST', '/__reset');
    expect((await listOf('?appId=app-b')).scope).toBe('global');
  });

  it('refuses bad input: empty appId on a write, unknown names, unknown apps in strict mode', async () => {
    app = makeTestApp({ scenarios: [OUTAGE], apps: [{ appId: 'app-test', apiKey: 'key-test' }] });
    const empty = await call(app, 'PUT', '/__scenarios/active?appId=', { names: [] });
    expect(expectApiError(empty, 400, 'ERR_BAD_REQUEST').details).toEqual({ appId: 'must not be empty' });
    expectApiError(await call(app, 'POST', '/__scenarios/reset?appId='), 400, 'ERR_BAD_REQUEST');
    expectApiError(await call(app, 'DELETE', '/__scenarios/active'), 400, 'ERR_BAD_REQUEST');
    const unknown = await call(app, 'PUT', '/__scenarios/active?appId=app-test', { names: ['nope'] });
    expectApiError(unknown, 400, 'ERR_BAD_REQUEST');
    expect((await listOf('?appId=app-test')).scope).toBe('global'); // nothing half-done
    for (const [method, path, body] of [
      ['GET', '/__scenarios?appId=ghost', undefined],
      ['PUT', '/__scenarios/active?appId=ghost', { names: [] }],
      ['DELETE', '/__scenarios/active?appId=ghost', undefined],
      ['POST', '/__scenarios/reset?appId=ghost', undefined],
      ['POST', '/__reset?appId=ghost', undefined],
    ] as const) {
      const res = await call(app, method, path, body);
      expectApiError(res, 404, 'ERR_NOT_FOUND');
      expect(errorOf(res).devMessage).toContain('"ghost"');
    }
  });

  it('a scenario named "active" can still be deleted without an app', async () => {
    app = makeTestApp({ scenarios: [{ ...OUTAGE, name: 'active' }] });
    expect(await callOk(app, 'DELETE', '/__scenarios/active')).toEqual({ deleted: 'active', active: [] });
  });
});
