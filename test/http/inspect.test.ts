/**
 * The inspect API (docs/reference.md#inspect): delivery filters and paging, long-poll waitFor,
 * notifications, the request journal, DELETE, /__health and the retention cap.
 */
import { describe, expect, it } from 'vitest';
import {
  CTA,
  call,
  expectApiError,
  makeTestApp,
  manualClock,
  send,
  callOk,
  sendOk,
  type List,
  errorOf,
} from '../helpers/app.js';
import type { EmulatorApp, Delivery, Health, JournalEntry, NotificationRecord } from '../../src/index.js';

const plain = (targets: string[], extra: Record<string, unknown> = {}) => ({
  template: { key: 'plain' },
  targets,
  mode: targets.length > 1 ? 'batch' : 'realtime',
  ...extra,
});
const order = {
  template: { key: 'order-confirmation', variables: { customerName: 'A', cta: CTA } },
  targets: ['o1'],
  mode: 'realtime',
  tag: 'orders',
};
const deliveries = async (app: EmulatorApp, query = '') =>
  (await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries${query}`)).body;
const users = (body: { items: { userId: string }[] }) => body.items.map((d) => d.userId);

async function seeded() {
  const clock = manualClock('2030-01-01T00:00:00.000Z');
  const app = makeTestApp({ clock });
  const first = await send(app, plain(['a', 'b']), { appId: 'shop' });
  clock.advance(60_000);
  await sendOk(app, order, { appId: 'blog' });
  clock.advance(60_000);
  await sendOk(app, plain(['c'], { tag: 'promo' }), { appId: 'shop' });
  return { app, clock, firstId: first.body.notificationId as string };
}

describe('GET /__inspect/deliveries filters', () => {
  it('lists every delivery oldest first with total', async () => {
    const { app } = await seeded();
    const body = await deliveries(app);
    expect(body.total).toBe(4);
    expect(users(body)).toEqual(['a', 'b', 'o1', 'c']);
  });

  it.each([
    ['?appId=shop', ['a', 'b', 'c']],
    ['?appId=blog', ['o1']],
    ['?userId=b', ['b']],
    ['?templateKey=order-confirmation', ['o1']],
    ['?templateId=aaaaaaaaaaaaaaaaaaaaaaaa', ['o1']],
    ['?mode=batch', ['a', 'b']],
    ['?mode=realtime', ['o1', 'c']],
    ['?channel=push', ['o1']],
    ['?channel=in_app', ['a', 'b', 'o1', 'c']],
    ['?status=sent', ['a', 'b', 'o1', 'c']],
    ['?status=failed', []],
    ['?tag=promo', ['c']],
    ['?since=2030-01-01T00:01:00.000Z', ['o1', 'c']],
    ['?until=2030-01-01T00:01:00.000Z', ['a', 'b', 'o1']],
    ['?since=2030-01-01T00:00:30Z&until=2030-01-01T00:01:30Z', ['o1']],
    ['?since=2030-01-01', ['a', 'b', 'o1', 'c']],
    ['?until=2030-01-01T01:00:30%2B01:00', ['a', 'b']],
    ['?appId=shop&mode=realtime', ['c']],
    ['?campaignId=nope', []],
  ])('filters with %s', async (query, expected) => {
    const { app } = await seeded();
    const body = await deliveries(app, query);
    expect(users(body)).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  it('filters by notificationId', async () => {
    const { app, firstId } = await seeded();
    expect(users(await deliveries(app, `?notificationId=${firstId}`))).toEqual(['a', 'b']);
  });

  it('pages with limit and offset, total counting every match', async () => {
    const { app } = await seeded();
    const body = await deliveries(app, '?limit=2&offset=1');
    expect(body).toMatchObject({ total: 4 });
    expect(users(body)).toEqual(['b', 'o1']);
    expect(users(await deliveries(app, '?limit=0'))).toEqual([]);
  });

  it('defaults limit to 100, also for an empty ?limit=', async () => {
    const app = makeTestApp();
    await sendOk(app, plain(Array.from({ length: 150 }, (_, i) => `u${i}`)));
    const body = await deliveries(app);
    expect(body.total).toBe(150);
    expect(body.items).toHaveLength(100);
    expect((await deliveries(app, '?limit=&offset=')).items).toHaveLength(100);
  });

  it('accepts limit 10,000 and answers 400 for 10,001, a negative offset or a bad date', async () => {
    const app = makeTestApp();
    expect((await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?limit=10000')).status).toBe(200);
    for (const query of [
      'limit=10001',
      'limit=abc',
      'offset=-1',
      'since=yesterday',
      'until=5',
      'since=March%207',
      'waitFor=0',
    ]) {
      const res = await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?${query}`);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(Object.keys(errorOf(res).details).length).toBeGreaterThan(0);
    }
  });
});

describe('GET /__inspect/deliveries?waitFor', () => {
  it('answers at once when enough deliveries already match, not at the timeout', async () => {
    const { app } = await seeded();
    const path = '/__inspect/deliveries?appId=shop&waitFor=3&timeoutMs=300000';
    const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000).unref());
    const res = await Promise.race([call<List<Delivery>>(app, 'GET', path), waited]);
    expect(res).not.toBe('waited');
    expect(res).toMatchObject({ status: 200, body: { total: 3 } });
  });

  it('holds the answer until the Nth matching delivery arrives', async () => {
    const app = makeTestApp();
    const pending = call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?userId=late&waitFor=1&timeoutMs=10000');
    await new Promise((r) => setTimeout(r, 20));
    await sendOk(app, plain(['other']));
    await sendOk(app, plain(['late']));
    const res = await pending;
    expect(res.status).toBe(200);
    expect(users(res.body)).toEqual(['late']);
  });

  it('answers 408 with what matched when the timeout passes', async () => {
    const app = makeTestApp();
    await sendOk(app, plain(['one']));
    const res = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?waitFor=2&timeoutMs=50');
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ total: 1 });
    expect(users(res.body)).toEqual(['one']);
  });
});

describe('GET /__inspect/notifications', () => {
  it('lists one record per send call, filterable', async () => {
    const { app, firstId } = await seeded();
    const all = (await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications')).body;
    expect(all.total).toBe(3);
    expect(all.items[0]).toMatchObject({
      notificationId: firstId,
      appId: 'shop',
      targetCount: 2,
      sentCount: 2,
      failedCount: 0,
      sentFrom: 'api',
    });
    expect((await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications?appId=blog')).body.total).toBe(
      1,
    );
    expect((await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications?tag=promo')).body.total).toBe(1);
    expect((await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications?mode=batch')).body.total).toBe(
      1,
    );
    expect(
      (await call<List<NotificationRecord>>(app, 'GET', `/__inspect/notifications?notificationId=${firstId}`)).body
        .total,
    ).toBe(1);
    expect(
      (
        await call<List<NotificationRecord>>(
          app,
          'GET',
          '/__inspect/notifications?since=2030-01-01T00:01:00Z&until=2030-01-01T00:01:00Z',
        )
      ).body.items,
    ).toEqual([expect.objectContaining({ appId: 'blog' })]);
    expect(
      (await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications?templateKey=plain&limit=1')).body,
    ).toMatchObject({
      total: 2,
      items: [{ notificationId: firstId }],
    });
  });
});

describe('GET /__inspect/requests', () => {
  it('journals every API request, refused ones too, with status, error code, app and duration', async () => {
    const app = makeTestApp({ apps: [{ appId: 'shop', apiKey: 'k' }] });
    await sendOk(app, plain(['a']), { appId: 'shop', apiKey: 'k' });
    expectApiError(await send(app, plain(['a']), { appId: 'shop', apiKey: 'bad' }), 401, 'ERR_UNAUTHORIZED');
    const empty = { template: { key: 'plain' }, targets: [], mode: 'batch' };
    expectApiError(await send(app, empty, { appId: 'shop', apiKey: 'k' }), 400, 'ERR_BAD_REQUEST');
    await callOk<List<Delivery>>(app, 'GET', '/__inspect/deliveries');
    const body = (await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests')).body;
    expect(body.total).toBe(3);
    expect(body.items.map((e) => [e.method, e.path, e.appId, e.status, e.errorCode])).toEqual([
      ['POST', '/api/notifications/send', 'shop', 200, null],
      ['POST', '/api/notifications/send', 'shop', 401, 'ERR_UNAUTHORIZED'],
      ['POST', '/api/notifications/send', 'shop', 400, 'ERR_BAD_REQUEST'],
    ]);
    for (const e of body.items) expect(e.durationMs).toBeGreaterThanOrEqual(0);
    expect((await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests?status=401')).body.total).toBe(1);
    expect(
      (await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests?errorCode=ERR_BAD_REQUEST')).body.total,
    ).toBe(1);
    expect((await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests?status=&method=post')).body.total).toBe(3);
    expectApiError(
      await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests?status=abc'),
      400,
      'ERR_BAD_REQUEST',
    );
  });
});

describe('GET /__inspect/requests: refusals before the route', () => {
  it('journals 405 and 413 with their codes, and requests under the production prefix', async () => {
    const app = makeTestApp({ bodyLimitBytes: 50 });
    expectApiError(await call(app, 'GET', '/api/notifications/send'), 405, 'ERR_BAD_REQUEST');
    expectApiError(await send(app, plain(['a'], { title: 'x'.repeat(100) })), 413, 'ERR_PAYLOAD_TOO_LARGE');
    const prefixed = await call(app, 'POST', '/v3/business-messaging/api/notifications/send', { mode: 'realtime' });
    expectApiError(prefixed, 400, 'ERR_BAD_REQUEST');
    const { body } = await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests');
    expect(body.items.map((e) => [e.path, e.status, e.errorCode])).toEqual([
      ['/api/notifications/send', 405, 'ERR_BAD_REQUEST'],
      ['/api/notifications/send', 413, 'ERR_PAYLOAD_TOO_LARGE'],
      ['/v3/business-messaging/api/notifications/send', 400, 'ERR_BAD_REQUEST'],
    ]);
  });
});

describe('DELETE /__inspect', () => {
  it('clears everything', async () => {
    const { app } = await seeded();
    const res = await call(app, 'DELETE', '/__inspect');
    expect(res.status).toBe(200);
    expect((await deliveries(app)).total).toBe(0);
    expect((await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications')).body.total).toBe(0);
    expect((await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests')).body.total).toBe(0);
  });

  it('clears one app with ?appId=', async () => {
    const { app } = await seeded();
    await callOk(app, 'DELETE', '/__inspect?appId=shop');
    expect(users(await deliveries(app))).toEqual(['o1']);
    expect((await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications')).body.total).toBe(1);
    expect((await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests?appId=shop')).body.total).toBe(0);
    expect((await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests?appId=blog')).body.total).toBe(1);
  });
});

describe('GET /__health and retention', () => {
  it('reports status, version, uptime, auth, templates, apps and scenarios', async () => {
    const app = makeTestApp();
    const body = (await call<Health>(app, 'GET', '/__health')).body;
    expect(body).toMatchObject({
      status: 'ok',
      version: expect.any(String),
      uptimeMs: expect.any(Number),
      auth: 'open',
      templates: 5,
      apps: 0,
      activeScenarios: [],
    });
  });

  it('keeps at most maxDeliveries, dropping the oldest, and reports the count dropped', async () => {
    const app = makeTestApp({ maxDeliveries: 3 });
    await sendOk(app, plain(['u1', 'u2']));
    await sendOk(app, plain(['u3', 'u4', 'u5']));
    expect(users(await deliveries(app))).toEqual(['u3', 'u4', 'u5']);
    expect((await call<Health>(app, 'GET', '/__health')).body).toMatchObject({ droppedDeliveries: 2 });
    expect((await deliveries(app, '?userId=u1')).total).toBe(0);
    expect((await deliveries(app, '?userId=u4')).total).toBe(1);
    await sendOk(app, plain(['u6']), { appId: 'other' });
    expect(users(await deliveries(app, '?appId=app-test'))).toEqual(['u4', 'u5']);
    expect((await call<Health>(app, 'GET', '/__health')).body).toMatchObject({ droppedDeliveries: 3, deliveries: 3 });
  });
});
