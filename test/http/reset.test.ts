/**
 * POST /__reset: back to the state at start (every app), or one app's with ?appId=; how
 * it differs from DELETE /__inspect; scheduled campaigns never fire after it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorClock, type EmulatorApp } from '../../src/index.js';
import { expectApiError, makeTestApp, manualClock, call, callOk, send, sendOk } from '../helpers/app.js';
import type {
  Campaign,
  Channel,
  ClockState,
  Health,
  ScenarioDetail,
  ScenarioList,
  TemplateView,
} from '../helpers/api-types.js';
import { createCampaign } from '../helpers/campaigns.js';

const PLAIN = { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' };
const FAIL_SEND = (name: string, times?: number) => ({
  name,
  rules: [{ match: { path: '/api/notifications/send' }, fault: { error: 'ERR_OPERATION_FAILED' }, times }],
});
const IN_APP = { name: 'In-App Alerts', type: 'in_app', templateType: 'ui' };

let app: EmulatorApp | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A read that must succeed, typed by the caller. */
const get = <T>(path: string, appId?: string) => callOk<T>(app!, 'GET', path, undefined, { appId });
const total = async (path: string) => (await get<{ total: number }>(path)).total;

/** Records of every kind for `appId`: a send, a campaign with recipients, a runtime template, a channel. */
async function fill(appId: string): Promise<void> {
  expect((await send(app!, PLAIN, { appId })).status).toBe(200);
  const campaign = await createCampaign(app!, {}, { appId });
  await callOk(app!, 'POST', `/api/campaigns/${campaign.id}/recipients`, { userIds: ['r1'] }, { appId });
  const channel = await callOk<Channel>(app!, 'POST', '/api/channels', IN_APP, { appId });
  const template = await callOk<TemplateView>(
    app!,
    'POST',
    '/api/templates',
    { name: `Runtime ${appId}`, channelIds: [channel.id] },
    { appId },
  );
  await callOk(
    app!,
    'POST',
    '/api/template-channels',
    { templateId: template.id, channelId: channel.id, channelType: 'in_app', content: { title: 'Row' } },
    { appId },
  );
}

/** Every (app, runtime template) pair, to look up its stored content rows after the templates are gone. */
const runtimeTemplates = () => app!.emulator.store.listRuntimeTemplates().map((t) => [t.appId!, t.id] as const);
const storedRows = (pairs: readonly (readonly [string, string])[], appId?: string) =>
  pairs
    .filter(([a]) => appId === undefined || a === appId)
    .reduce((n, [a, id]) => n + app!.emulator.store.listTemplateChannels(a, id).length, 0);

describe('POST /__reset', () => {
  it('answers {reset: true, appId: null} and clears every record of every app', async () => {
    app = makeTestApp();
    await fill('shop');
    await fill('blog');
    const fixtureKeys = (await get<TemplateView[]>('/api/templates', 'x')).map((t: { key: string }) => t.key);
    const pairs = runtimeTemplates();
    expect(storedRows(pairs)).toBe(2);
    const res = await call(app, 'POST', '/__reset');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reset: true, appId: null });
    for (const path of ['deliveries', 'notifications', 'requests', 'campaigns']) {
      expect(await total(`/__inspect/${path}`)).toBe(0);
    }
    // Runtime templates and channels are gone; fixture templates stay.
    expect((await get<TemplateView[]>('/api/templates', 'shop')).map((t: { key: string }) => t.key)).toEqual(
      fixtureKeys,
    );
    expect(await get<Channel[]>('/api/channels', 'shop')).toEqual([]);
    expect(await get<Channel[]>('/api/channels', 'blog')).toEqual([]);
    expect(storedRows(pairs)).toBe(0);
  });

  it('forgets apps open mode added; configured apps stay', async () => {
    app = makeTestApp();
    await sendOk(app, PLAIN, { appId: 'a1' });
    await sendOk(app, PLAIN, { appId: 'a2' });
    expect((await get<Health>('/__health')).apps).toBe(2);
    await callOk(app, 'POST', '/__reset?appId=a1');
    expect((await get<Health>('/__health')).apps).toBe(1);
    await callOk(app, 'POST', '/__reset');
    expect((await get<Health>('/__health')).apps).toBe(0);

    await app.close();
    app = makeTestApp({ apps: [{ appId: 'conf', apiKey: 'k' }] });
    await callOk(app, 'POST', '/__reset');
    await callOk(app, 'POST', '/__reset?appId=conf');
    expect((await send(app, PLAIN, { appId: 'conf', apiKey: 'k' })).status).toBe(200);
  });

  it('removes runtime-loaded scenarios, restores option ones, their counters and the start active set', async () => {
    app = makeTestApp({ scenarios: [FAIL_SEND('start', 1), FAIL_SEND('spare')], activeScenarios: ['start'] });
    expectApiError(await send(app, PLAIN), 500, 'ERR_OPERATION_FAILED'); // spends "start"'s one time
    await send(app, PLAIN, { headers: { 'x-emulator-scenario': 'spare' } });
    expect((await call(app, 'POST', '/__scenarios', FAIL_SEND('runtime'))).status).toBe(201);
    await callOk(app, 'POST', '/__scenarios', { ...FAIL_SEND('spare'), description: 'replaced at run time' });
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['runtime'] });

    await callOk(app, 'POST', '/__reset');
    const body = await get<ScenarioList>('/__scenarios');
    expect(body.active).toEqual(['start']);
    expect(body.scenarios.map((s: { name: string; source: string }) => [s.name, s.source])).toEqual([
      ['start', 'options.scenarios'],
      ['spare', 'options.scenarios'],
    ]);
    expect(body.scenarios[1]!.description).toBeNull();
    expect(body.scenarios[0]!.rules[0]).toMatchObject({ applied: 0, remaining: 1 });
    expect(body.headerActivated).toEqual([]);
    expectApiError(await send(app, PLAIN), 500, 'ERR_OPERATION_FAILED'); // "start" has its time again
  });

  it('puts a file scenario replaced through the API back to the file version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'flaky.json'), JSON.stringify(FAIL_SEND('flaky')));
    app = makeTestApp({ scenariosDir: dir });
    await callOk(app, 'POST', '/__scenarios', { name: 'flaky', rules: [{ match: {}, fault: { status: 418 } }] });
    expect((await get<ScenarioDetail>('/__scenarios/flaky')).source).toBe('api');
    await callOk(app, 'POST', '/__reset');
    const view = await get<ScenarioDetail>('/__scenarios/flaky');
    expect(view.source).toBe(join(dir, 'flaky.json'));
    expect(view.rules[0]!.fault).toEqual({ error: 'ERR_OPERATION_FAILED' });
  });

  it('puts the clock back to its start: manual at the start instant, or real time', async () => {
    const clock = manualClock('2030-01-01T00:00:00.000Z');
    app = makeTestApp({ clock });
    await callOk(app, 'POST', '/__clock', { advanceMs: 86_400_000 });
    await callOk(app, 'POST', '/__reset');
    expect(await get<ClockState>('/__clock')).toEqual({ now: '2030-01-01T00:00:00.000Z', mode: 'manual' });
    await callOk(app, 'POST', '/__clock', { mode: 'real' });
    await callOk(app, 'POST', '/__reset');
    expect((await get<ClockState>('/__clock')).mode).toBe('manual');

    await app.close();
    app = makeTestApp({ clock: new EmulatorClock() });
    await callOk(app, 'POST', '/__clock', { now: '2040-01-01T00:00:00Z' });
    await callOk(app, 'POST', '/__reset');
    const now = await get<ClockState>('/__clock');
    expect(now.mode).toBe('real');
    expect(Math.abs(Date.parse(now.now) - Date.now())).toBeLessThan(5000);
  });

  it('with ?appId= resets that app only; scenarios, counters and the clock stay', async () => {
    const clock = manualClock();
    app = makeTestApp({ clock, scenarios: [FAIL_SEND('once', 1)] });
    await fill('shop');
    await fill('blog');
    await send(app, PLAIN, { appId: 'blog', headers: { 'x-emulator-scenario': 'once' } });
    await callOk(app, 'POST', '/__scenarios', FAIL_SEND('runtime'));
    await callOk(app, 'POST', '/__clock', { advanceMs: 1000 });

    const pairs = runtimeTemplates();
    const res = await call(app, 'POST', '/__reset?appId=shop');
    expect(res.body).toEqual({ reset: true, appId: 'shop' });
    expect(storedRows(pairs, 'shop')).toBe(0);
    expect(storedRows(pairs, 'blog')).toBe(1);
    for (const path of ['deliveries', 'notifications', 'requests', 'campaigns']) {
      expect(await total(`/__inspect/${path}?appId=shop`)).toBe(0);
      expect(await total(`/__inspect/${path}?appId=blog`)).toBeGreaterThan(0);
    }
    expect(await get<Channel[]>('/api/channels', 'shop')).toEqual([]);
    expect(await get<Channel[]>('/api/channels', 'blog')).toHaveLength(1);
    const runtime = (appId: string) =>
      get<TemplateView[]>('/api/templates', appId).then((list) =>
        list.filter((t: { name: string }) => t.name.startsWith('Runtime')),
      );
    expect(await runtime('shop')).toEqual([]);
    expect(await runtime('blog')).toHaveLength(1);
    const scenarios = await get<ScenarioList>('/__scenarios');
    expect(scenarios.scenarios.map((s: { name: string }) => s.name)).toEqual(['once', 'runtime']);
    expect(scenarios.headerActivated[0]!.rules[0]).toMatchObject({ applied: 1, remaining: 0 });
    expect((await get<ClockState>('/__clock')).now).toBe('2030-01-01T00:00:01.000Z');
  });

  it('differs from DELETE /__inspect, which keeps runtime templates, channels, scenarios and the clock', async () => {
    app = makeTestApp({ clock: manualClock() });
    await fill('shop');
    await callOk(app, 'POST', '/__scenarios', FAIL_SEND('runtime'));
    await callOk(app, 'POST', '/__clock', { advanceMs: 1000 });
    await callOk(app, 'DELETE', '/__inspect');
    expect(await total('/__inspect/deliveries')).toBe(0);
    expect(await get<Channel[]>('/api/channels', 'shop')).toHaveLength(1);
    expect((await get<ScenarioDetail>('/__scenarios/runtime')).name).toBe('runtime');
    expect((await get<ClockState>('/__clock')).now).toBe('2030-01-01T00:00:01.000Z');
  });

  it('is under the admin token like the rest of /__', async () => {
    app = makeTestApp({ adminToken: 'sesame' });
    await sendOk(app, PLAIN);
    expectApiError(await call(app, 'POST', '/__reset'), 401, 'ERR_UNAUTHORIZED');
    const res = await call(app, 'POST', '/__reset', undefined, { headers: { authorization: 'Bearer sesame' } });
    expect(res.body).toEqual({ reset: true, appId: null });
  });

  it('answers 405 to another method', async () => {
    app = makeTestApp();
    expectApiError(await call(app, 'GET', '/__reset'), 405, 'ERR_BAD_REQUEST');
  });
});

describe('POST /__reset and scheduled campaigns', () => {
  async function schedule(appId: string, scheduledAt: string): Promise<string> {
    const campaign = await createCampaign(app!, {}, { appId });
    await callOk(app!, 'POST', `/api/campaigns/${campaign.id}/recipients`, { userIds: ['s1', 's2'] }, { appId });
    const sent = await callOk<Campaign>(app!, 'POST', `/api/campaigns/${campaign.id}/send`, { scheduledAt }, { appId });
    expect(sent.status).toBe('scheduled');
    return campaign.id;
  }

  it('cancels their timers: moving the clock past scheduledAt afterwards delivers nothing', async () => {
    const clock = manualClock();
    app = makeTestApp({ clock });
    await schedule('shop', '2030-01-01T01:00:00Z');
    expect(clock.pending).toBe(1);
    await callOk(app, 'POST', '/__reset');
    expect(clock.pending).toBe(0);
    await callOk(app, 'POST', '/__clock', { advanceMs: 7_200_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await total('/__inspect/deliveries')).toBe(0);
  });

  it('on real time too: a campaign due 300 ms later never sends', async () => {
    app = makeTestApp();
    await schedule('shop', new Date(Date.now() + 300).toISOString());
    await callOk(app, 'POST', '/__reset');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await total('/__inspect/deliveries')).toBe(0);
    expect(await total('/__inspect/campaigns')).toBe(0);
  });

  it('with ?appId= cancels only that app’s; the other app’s campaign still starts', async () => {
    const clock = manualClock();
    app = makeTestApp({ clock });
    await schedule('shop', '2030-01-01T01:00:00Z');
    const blog = await schedule('blog', '2030-01-01T01:00:00Z');
    await callOk(app, 'POST', '/__reset?appId=shop');
    expect(clock.pending).toBe(1);
    await callOk(app, 'POST', '/__clock', { advanceMs: 7_200_000 });
    const res = await call(app, 'GET', `/__inspect/deliveries?waitFor=2&timeoutMs=5000&campaignId=${blog}`);
    expect(res.status).toBe(200);
    expect(await total('/__inspect/deliveries?appId=shop')).toBe(0);
  });
});

describe('POST /__reset and a campaign still sending', () => {
  it('stops it between chunks: what it delivered is cleared, no more comes, the emulator serves on', async () => {
    app = makeTestApp();
    const campaign = await createCampaign(app, { templateId: 'plain' });
    const userIds = Array.from({ length: 10_000 }, (_, i) => `bulk-${i}`);
    await callOk(app, 'POST', `/api/campaigns/${campaign.id}/recipients`, { userIds });
    await callOk(app, 'POST', `/api/campaigns/${campaign.id}/send`, {});
    // The send answered with the campaign "sending": its chunks run on later turns of the event loop.
    await callOk(app, 'POST', '/__reset');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await total('/__inspect/deliveries')).toBe(0);
    expect(await total('/__inspect/campaigns')).toBe(0);
    expect((await send(app, PLAIN)).status).toBe(200);
  });
});
