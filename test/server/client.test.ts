/**
 * createClient against a real server (docs/reference.md#inspect and #clock): every method maps to its control
 * endpoint, answers are typed records, failures are EmulatorClientErrors with the envelope.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createClient,
  EmulatorClientError,
  startEmulator,
  type EmulatorClient,
  type RollupBody,
  type RollupResult,
  type RunningEmulator,
} from '../../src/index.js';
import { manualClock, TEST_TEMPLATES } from '../helpers/app.js';

let emu: RunningEmulator;
let client: EmulatorClient;

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    templates: TEST_TEMPLATES,
    watch: false,
    logLevel: 'silent',
    seed: 5,
    clock: manualClock('2030-01-01T00:00:00.000Z'),
  });
  client = createClient({ url: `${emu.url}/` });
});
afterAll(() => emu.close());
beforeEach(() => client.reset());

async function api<T = { id: string }>(method: string, path: string, body?: unknown, appId = 'app-a'): Promise<T> {
  const res = await fetch(`${emu.url}/api${path}`, {
    method,
    headers: { appid: appId, apikey: 'key', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const greet = (targets: string[], appId = 'app-a', extra: object = {}) =>
  api<{ notificationId: string }>(
    'POST',
    '/notifications/send',
    {
      template: { key: 'greeting', variables: { name: 'Ada' } },
      targets,
      mode: targets.length > 1 ? 'batch' : 'realtime',
      ...extra,
    },
    appId,
  );

describe('client: inspect', () => {
  it('health() answers the health record', async () => {
    expect(await client.health()).toMatchObject({
      status: 'ok',
      version: expect.any(String),
      auth: 'open',
      templates: TEST_TEMPLATES.length,
    });
    expect(client.url).toBe(emu.url);
  });

  it('deliveries() passes filters and paging, and Date instants as ISO', async () => {
    await greet(['u1', 'u2', 'u3']);
    await greet(['u9'], 'app-b', { tag: 'promo' });
    expect((await client.deliveries()).total).toBe(4);
    expect((await client.deliveries({ appId: 'app-a', limit: 1, offset: 1 })).items.map((d) => d.userId)).toEqual([
      'u2',
    ]);
    expect((await client.deliveries({ tag: 'promo', status: 'sent', mode: 'realtime' })).items).toMatchObject([
      { userId: 'u9', appId: 'app-b' },
    ]);
    expect(
      (await client.deliveries({ since: new Date('2029-12-31T00:00:00Z'), until: '2030-01-02T00:00:00Z' })).total,
    ).toBe(4);
    expect((await client.deliveries({ since: new Date('2030-06-01T00:00:00Z') })).total).toBe(0);
  });

  it('waitForDeliveries() resolves once enough deliveries match', async () => {
    const waiting = client.waitForDeliveries({ userId: 'late-user' }, { count: 1, timeoutMs: 10_000 });
    await greet(['late-user']);
    expect(await waiting).toMatchObject({ total: 1, items: [{ userId: 'late-user' }] });
  });

  it('waitForDeliveries() rejects on timeout saying how many matched', async () => {
    await greet(['u1', 'u2']);
    const error = await client
      .waitForDeliveries({ appId: 'app-a' }, { count: 5, timeoutMs: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorClientError);
    expect(error).toMatchObject({ status: 408 });
    expect((error as Error).message).toMatch(
      /waited 50 ms for 5 deliveries matching \{"appId":"app-a"\}, but only 2 matched/,
    );
  });

  it('notifications() and requests() answer the records with their filters', async () => {
    const sent = await greet(['u1'], 'app-a', { tag: 't1' });
    await greet(['u2'], 'app-b');
    expect((await client.notifications({ tag: 't1' })).items).toMatchObject([
      { notificationId: sent.notificationId, appId: 'app-a' },
    ]);
    const requests = await client.requests({ appId: 'app-b', method: 'POST', status: 200 });
    expect(requests.items).toMatchObject([{ path: '/api/notifications/send', appId: 'app-b', status: 200 }]);
  });

  it('reset() clears everything, or one app with { appId }', async () => {
    await greet(['u1'], 'app-a');
    await greet(['u2'], 'app-b');
    await client.reset({ appId: 'app-a' });
    expect((await client.deliveries()).items.map((d) => d.appId)).toEqual(['app-b']);
    await client.reset();
    expect(await client.deliveries()).toEqual({ total: 0, items: [] });
  });

  it('requests() filters by body text and pages newest first; request(id) answers one entry', async () => {
    await greet(['needle'], 'app-a');
    await greet(['hay'], 'app-b');
    const found = await client.requests({ bodyContains: 'needle' });
    expect(found.items.map((e) => e.appId)).toEqual(['app-a']);
    expect((await client.requests({ order: 'desc', limit: 1 })).items[0]?.appId).toBe('app-b');
    const one = await client.request(found.items[0]!.id);
    expect(one).toMatchObject({ requestHeaders: { apikey: '***' }, requestBodyTruncated: false });
    expect(one.requestBody).toContain('needle');
    // Over a real socket the response body comes from the server's own Response (no clone).
    expect(JSON.parse(one.responseBody!)).toMatchObject({ notificationId: expect.stringMatching(/^notif_/) });
    await expect(client.request('nope')).rejects.toMatchObject({ status: 404, code: 'ERR_NOT_FOUND' });
  });

  it('resetAll() goes back to the start state, or one app with { appId }', async () => {
    await greet(['u1'], 'app-a');
    await greet(['u2'], 'app-b');
    await client.scenarios.load({ name: 'client-runtime', rules: [{ match: {}, fault: { delayMs: 1 } }] });
    await client.resetAll({ appId: 'app-a' });
    expect((await client.deliveries()).items.map((d) => d.appId)).toEqual(['app-b']);
    expect((await client.scenarios.list()).scenarios.map((s) => s.name)).toContain('client-runtime');
    await client.resetAll();
    expect(await client.deliveries()).toEqual({ total: 0, items: [] });
    expect((await client.scenarios.list()).scenarios.map((s) => s.name)).not.toContain('client-runtime');
    expect(await client.clock.get()).toEqual({ now: '2030-01-01T00:00:00.000Z', mode: 'manual' });
  });

  it('types the analytics rollup, and requests() finds its journal entry', async () => {
    const body: RollupBody = { from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z' };
    const answer = await api<RollupResult>('POST', '/analytics/rollup', body);
    const eventsProcessed: number = answer.eventsProcessed;
    expect({ ...answer, eventsProcessed }).toEqual({
      success: true,
      from: '2030-01-01T00:00:00.000Z',
      to: '2030-01-02T00:00:00.000Z',
      eventsProcessed: 0,
    });
    const journal = await client.forApp('app-a').requests({ path: '/api/analytics/rollup' });
    expect(journal.items.map((e) => [e.method, e.status, JSON.parse(e.responseBody!)])).toEqual([
      ['POST', 200, answer],
    ]);
  });

  it('rejects with an EmulatorClientError carrying the error envelope on a bad query', async () => {
    const error = await client.deliveries({ limit: 20_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorClientError);
    expect(error).toMatchObject({ status: 400, code: 'ERR_BAD_REQUEST', body: { error: { code: 'ERR_BAD_REQUEST' } } });
    expect((error as Error).message).toMatch(
      /^GET \/__inspect\/deliveries\?limit=20000 answered 400 \(ERR_BAD_REQUEST: /,
    );
  });

  it('rejects with a clear error when nothing listens at the URL', async () => {
    const closed = await startEmulator({ port: 0, templates: [], watch: false, logLevel: 'silent' });
    await closed.close();
    await expect(createClient({ url: closed.url }).health()).rejects.toThrow();
  });
});

describe('client: campaigns', () => {
  it("campaigns(), campaign(id) and campaignRecipients(id) read any app's campaigns", async () => {
    const created = await api('POST', '/campaigns', { name: 'Spring', templateId: 'greeting', deliveryMode: 'batch' });
    await api('POST', `/campaigns/${created.id}/recipients`, { userIds: ['r1', 'r2'] });
    const list = await client.campaigns({ appId: 'app-a' });
    expect(list).toMatchObject({ total: 1, items: [{ id: created.id, name: 'Spring' }] });
    expect(await client.campaign(created.id)).toMatchObject({ id: created.id, appId: 'app-a' });
    const recipients = await client.campaignRecipients(created.id, { limit: 1 });
    expect(recipients.total).toBe(2);
    expect(recipients.items).toHaveLength(1);
    await expect(client.campaign('0000000000000000deadbeef')).rejects.toMatchObject({
      status: 404,
      code: 'ERR_NOT_FOUND',
    });
  });
});

describe('client: scenarios', () => {
  const outage = {
    name: 'client-outage',
    description: 'sends fail',
    rules: [{ match: { path: '/api/notifications/send' }, fault: { error: 'ERR_OPERATION_FAILED' }, times: 1 }],
  };

  it('load(), list(), activate(), reset() and remove() drive /__scenarios', async () => {
    expect(await client.scenarios.load(outage)).toMatchObject({ replaced: false, scenario: { name: 'client-outage' } });
    expect((await client.scenarios.list()).scenarios.map((s) => s.name)).toContain('client-outage');
    expect(await client.scenarios.get('client-outage')).toMatchObject({ name: 'client-outage', headerRules: [{}] });
    await expect(client.scenarios.get('nope')).rejects.toMatchObject({ status: 404 });
    expect(await client.scenarios.activate(['client-outage'])).toEqual({ active: ['client-outage'] });
    await expect(greet(['u1'])).rejects.toThrow(/500/);
    await greet(['u1']); // times: 1 is spent
    const reset = await client.scenarios.reset();
    expect(reset.active).toEqual(['client-outage']);
    await expect(greet(['u1'])).rejects.toThrow(/500/);
    expect(await client.scenarios.remove('client-outage')).toMatchObject({ deleted: 'client-outage' });
    await greet(['u1']);
    await expect(client.scenarios.remove('client-outage')).rejects.toMatchObject({ status: 404 });
  });

  it('activate() with an unknown name rejects with 400', async () => {
    await expect(client.scenarios.activate(['no-such-scenario'])).rejects.toMatchObject({
      status: 400,
      code: 'ERR_BAD_REQUEST',
    });
  });
});

describe('client: clock', () => {
  it('get(), advance(), set() and real() drive /__clock', async () => {
    expect(await client.clock.set('2030-05-01T00:00:00.000Z')).toEqual({
      now: '2030-05-01T00:00:00.000Z',
      mode: 'manual',
    });
    expect(await client.clock.advance(60_000)).toEqual({ now: '2030-05-01T00:01:00.000Z', mode: 'manual' });
    expect(await client.clock.get()).toEqual({ now: '2030-05-01T00:01:00.000Z', mode: 'manual' });
    await greet(['u1']);
    expect((await client.deliveries()).items[0]?.createdAt).toBe('2030-05-01T00:01:00.000Z');
    expect(await client.clock.set(new Date('2030-06-01T00:00:00.000Z'))).toMatchObject({
      now: '2030-06-01T00:00:00.000Z',
    });
    expect((await client.clock.real()).mode).toBe('real');
  });
});
