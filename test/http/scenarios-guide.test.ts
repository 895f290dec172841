/**
 * What the scenario guide (docs/scenarios.md, "What happens when") states, each as a test:
 * counters and activation across a reload, the headers of an injected 429, whose header
 * counters a view without `?appId=` shows, what `matched` counts and in what order recipients
 * count, `X-RateLimit-Reset`, an injected fault leaving nothing done, `loadErrors` across an
 * unrelated reload, and `POST /__reset?appId=` against the shared scenarios and clock.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EmulatorApp } from '../../src/index.js';
import { call, callOk, expectApiError, makeTestApp, manualClock, send, sendOk } from '../helpers/app.js';
import type {
  CampaignPage,
  ClockState,
  DeliveryPage,
  NotificationPage,
  ScenarioDetail,
  ScenarioList,
} from '../helpers/api-types.js';
import { createCampaign, orderCsv, upload } from '../helpers/campaigns.js';

const PLAIN = { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' };
const batch = (targets: string[]) => ({ template: { key: 'plain' }, targets, mode: 'batch' });
const SEND = { method: 'POST', path: '/api/notifications/send' };
const once = (name: string, status: number) => ({ name, rules: [{ match: SEND, fault: { status }, times: 1 }] });
const header = (name: string, appId = 'app-test') => ({ appId, headers: { 'x-emulator-scenario': name } });
const QUIET = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
const WAIT = { timeout: 5000, interval: 50 };

let app: EmulatorApp | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scenarioDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'scenarios-guide-'));
  dirs.push(dir);
  for (const [file, body] of Object.entries(files))
    writeFileSync(join(dir, file), typeof body === 'string' ? body : JSON.stringify(body));
  return dir;
}

describe('a reload of the scenarios folder', () => {
  it('restarts the counters of an edited file, keeps those of an untouched one, and keeps both active', async () => {
    const dir = scenarioDir({ 'edited.json': once('edited', 503), 'kept.json': once('kept', 502) });
    app = makeTestApp({ scenariosDir: dir, watch: true, logger: QUIET });
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['edited', 'kept'] });
    expect((await send(app, PLAIN)).status).toBe(503); // edited's one time
    expect((await send(app, PLAIN)).status).toBe(502); // kept's one time
    expect((await send(app, PLAIN)).status).toBe(200); // both spent

    writeFileSync(join(dir, 'edited.json'), JSON.stringify(once('edited', 504)));
    const list = () => callOk<ScenarioList>(app!, 'GET', '/__scenarios');
    await vi.waitFor(async () => expect((await list()).scenarios[0]!.rules[0]!.fault).toEqual({ status: 504 }), WAIT);
    expect((await list()).active).toEqual(['edited', 'kept']);
    expect((await list()).scenarios.map((s) => [s.name, s.rules[0]!.remaining])).toEqual([
      ['edited', 1],
      ['kept', 0],
    ]);
    expect((await send(app, PLAIN)).status).toBe(504);
    expect((await send(app, PLAIN)).status).toBe(200);
  });

  it('keeps a file refused earlier in loadErrors after a reload another file caused', async () => {
    const dir = scenarioDir({ 'bad.json': once('fine', 503) });
    app = makeTestApp({ scenariosDir: dir, watch: true, logger: QUIET });
    const list = () => callOk<ScenarioList>(app!, 'GET', '/__scenarios');
    writeFileSync(join(dir, 'bad.json'), '{ not json');
    await vi.waitFor(
      async () => expect((await list()).loadErrors.map((e) => e.file)).toEqual([join(dir, 'bad.json')]),
      WAIT,
    );
    writeFileSync(join(dir, 'other.json'), JSON.stringify(once('other', 502)));
    await vi.waitFor(async () => expect((await list()).scenarios.map((s) => s.name)).toContain('other'), WAIT);
    expect((await list()).loadErrors.map((e) => e.file)).toEqual([join(dir, 'bad.json')]);
  });
});

describe('an injected 429', () => {
  it('from `error: "ERR_TOO_MANY_REQUESTS"` carries no rate-limit header; from `rateLimit` it does', async () => {
    app = makeTestApp({
      scenarios: [
        { name: 'as-error', rules: [{ match: SEND, fault: { error: 'ERR_TOO_MANY_REQUESTS' } }] },
        { name: 'as-limit', rules: [{ match: SEND, fault: { rateLimit: { retryAfterSec: 3 } } }] },
      ],
    });
    const plain = await send(app, PLAIN, header('as-error'));
    expectApiError(plain, 429, 'ERR_TOO_MANY_REQUESTS');
    for (const name of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      expect(plain.headers.get(name), name).toBeNull();
    const limited = await send(app, PLAIN, header('as-limit'));
    expectApiError(limited, 429, 'ERR_TOO_MANY_REQUESTS');
    expect(limited.headers.get('retry-after')).toBe('3');
  });

  it("sets X-RateLimit-Reset to the app's clock, rounded up to the second, plus retryAfterSec", async () => {
    app = makeTestApp({
      clock: manualClock('2030-01-01T00:00:00.000Z'),
      scenarios: [{ name: 'limit', rules: [{ match: SEND, fault: { rateLimit: { retryAfterSec: 30 } } }] }],
    });
    await callOk(app, 'POST', '/__clock?appId=app-own', { now: '2031-06-01T12:00:00.250Z' });
    const seconds = (iso: string) => Date.parse(iso) / 1000;
    const shared = await send(app, PLAIN, header('limit'));
    expect(Number(shared.headers.get('x-ratelimit-reset'))).toBe(seconds('2030-01-01T00:00:00Z') + 30);
    const own = await send(app, PLAIN, header('limit', 'app-own'));
    expect(Number(own.headers.get('x-ratelimit-reset'))).toBe(seconds('2031-06-01T12:00:01Z') + 30);
  });
});

describe('an injected error or rate limit', () => {
  it.each([{ error: 'ERR_OPERATION_FAILED' }, { rateLimit: { retryAfterSec: 1 } }, { status: 503 }])(
    'means the operation did not happen (%j)',
    async (fault) => {
      app = makeTestApp({ scenarios: [{ name: 'refuse', rules: [{ match: { method: 'POST' }, fault }] }] });
      expect((await send(app, batch(['a', 'b']), header('refuse'))).status).not.toBe(200);
      const created = await call(
        app,
        'POST',
        '/api/campaigns',
        { name: 'x', templateId: 'plain', deliveryMode: 'batch' },
        header('refuse'),
      );
      expect(created.status).not.toBe(200);
      expect((await callOk<DeliveryPage>(app, 'GET', '/__inspect/deliveries')).total).toBe(0);
      expect((await callOk<NotificationPage>(app, 'GET', '/__inspect/notifications')).total).toBe(0);
      expect((await callOk<CampaignPage>(app, 'GET', '/__inspect/campaigns')).total).toBe(0);
    },
  );
});

describe('counting', () => {
  const TWICE = { name: 'twice', rules: [{ match: SEND, fault: { status: 503 }, times: 2 }] };

  it('shows, for GET /__scenarios/{name} without ?appId=, the header counters of every app summed', async () => {
    app = makeTestApp({ scenarios: [TWICE] });
    await send(app, PLAIN, header('twice', 'app-a'));
    await send(app, PLAIN, header('twice', 'app-a'));
    await send(app, PLAIN, header('twice', 'app-b'));
    const all = await callOk<ScenarioDetail>(app, 'GET', '/__scenarios/twice');
    // remaining is worked out from the sum: app-b still has one left, which only its own view shows.
    expect(all.headerRules[0]).toMatchObject({ matched: 3, applied: 3, remaining: 0 });
    expect(all.rules[0]).toMatchObject({ matched: 0, applied: 0, remaining: 2 });
    const b = await callOk<ScenarioDetail>(app, 'GET', '/__scenarios/twice?appId=app-b');
    expect(b.headerRules[0]).toMatchObject({ matched: 1, applied: 1, remaining: 1 });
  });

  it('does not count a match for a rule an earlier final fault kept from being consulted', async () => {
    const first = { match: SEND, fault: { status: 503 }, times: 1 };
    const second = { match: SEND, fault: { status: 502 } };
    app = makeTestApp({ scenarios: [{ name: 'two-rules', rules: [first, second] }], activeScenarios: ['two-rules'] });
    expect((await send(app, PLAIN)).status).toBe(503);
    expect((await send(app, PLAIN)).status).toBe(502);
    const rules = (await callOk<ScenarioDetail>(app, 'GET', '/__scenarios/two-rules')).rules;
    expect(rules.map((r) => [r.matched, r.applied])).toEqual([
      [2, 1],
      [1, 1],
    ]);
  });

  it("counts a one-call send's recipients in the order of `targets`, a repeated target once", async () => {
    const rule = { match: { userId: '*' }, fault: { failDelivery: 'bounced' }, after: 1, times: 2 };
    app = makeTestApp({ scenarios: [{ name: 'middle', rules: [rule] }], activeScenarios: ['middle'] });
    await sendOk(app, batch(['d', 'b', 'd', 'a', 'c']));
    const failed = await callOk<DeliveryPage>(app, 'GET', '/__inspect/deliveries?status=failed');
    expect(failed.items.map((d) => d.userId).sort()).toEqual(['a', 'b']);
  });

  it("counts a campaign's recipients in the order they were added, a CSV's rows from the top", async () => {
    const rule = { match: { userId: '*' }, fault: { failDelivery: 'bounced' }, after: 1, times: 2 };
    app = makeTestApp({ scenarios: [{ name: 'middle', rules: [rule] }], activeScenarios: ['middle'] });
    const campaign = await createCampaign(app);
    await callOk(app, 'POST', `/api/campaigns/${campaign.id}/recipients`, { userIds: ['r4', 'r2'] });
    const csv = await upload(app, orderCsv(['r3', 'r1']), campaign.id); // CSV rows from the top
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    await callOk(app, 'POST', `/api/campaigns/${campaign.id}/send`, {});
    await vi.waitFor(async () => {
      const page = await callOk<DeliveryPage>(app!, 'GET', `/__inspect/deliveries?campaignId=${campaign.id}`);
      expect(page.total).toBe(4);
    }, WAIT);
    const failed = await callOk<DeliveryPage>(app, 'GET', '/__inspect/deliveries?status=failed');
    expect(failed.items.map((d) => d.userId).sort()).toEqual(['r2', 'r3']);
  });
});

describe('POST /__reset?appId=A', () => {
  it("drops A's own clock, set and counters; the shared clock, global set and its counters stay", async () => {
    app = makeTestApp({ clock: manualClock('2030-01-01T00:00:00.000Z'), scenarios: [once('shared', 503)] });
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['shared'] });
    await callOk(app, 'POST', '/__scenarios', once('runtime', 502));
    await callOk(app, 'POST', '/__clock', { advanceMs: 60_000 });
    expect((await send(app, PLAIN, { appId: 'app-b' })).status).toBe(503); // spends the global counter
    await callOk(app, 'POST', '/__clock?appId=app-a', { advanceMs: 5_000 });
    await callOk(app, 'PUT', '/__scenarios/active?appId=app-a', { names: ['runtime'] });
    expect((await send(app, PLAIN, { appId: 'app-a' })).status).toBe(502);

    await callOk(app, 'POST', '/__reset?appId=app-a');
    const clockA = await callOk<ClockState>(app, 'GET', '/__clock?appId=app-a');
    expect(clockA).toMatchObject({ now: '2030-01-01T00:01:00.000Z', scope: 'shared' });
    expect((await callOk<ClockState>(app, 'GET', '/__clock')).now).toBe('2030-01-01T00:01:00.000Z');
    const listA = await callOk<ScenarioList>(app, 'GET', '/__scenarios?appId=app-a');
    expect(listA).toMatchObject({ active: ['shared'], scope: 'global' });
    expect(listA.scenarios.map((s) => [s.name, s.rules[0]!.applied])).toEqual([
      ['shared', 1], // the global counter A follows again: not restored by A's reset
      ['runtime', 0],
    ]);
    // A now follows the global set, whose one time is spent.
    expect((await send(app, PLAIN, { appId: 'app-a' })).status).toBe(200);
  });
});
