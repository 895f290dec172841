/**
 * Strict inspect queries (unknown or repeated parameter, bad enum value → 400 naming it;
 * an empty value means absent, the same way everywhere) and order=desc on every list.
 */
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, manualClock, call, callOk, sendOk, errorOf } from '../helpers/app.js';
import type { EmulatorApp } from '../../src/index.js';
import type {
  Campaign,
  CampaignPage,
  DeliveryPage,
  JournalPage,
  NotificationPage,
  RecipientPage,
} from '../helpers/api-types.js';

const plain = (targets: string[]) => ({
  template: { key: 'plain' },
  targets,
  mode: targets.length > 1 ? 'batch' : 'realtime',
});

async function seeded(): Promise<EmulatorApp> {
  const clock = manualClock();
  const app = makeTestApp({ clock });
  await sendOk(app, plain(['a', 'b']), { appId: 'shop' }); // one run of two
  clock.advance(1000);
  await sendOk(app, plain(['c']), { appId: 'blog' });
  clock.advance(1000);
  await sendOk(app, plain(['d', 'e', 'f']), { appId: 'shop' });
  return app;
}

const get = (app: EmulatorApp, path: string) => call(app, 'GET', path);
/** A list answer that must succeed. */
const list = <T>(app: EmulatorApp, path: string) => callOk<T>(app, 'GET', path);
const deliveries = (app: EmulatorApp, path: string) => list<DeliveryPage>(app, path);
const users = (body: { items: { userId: string }[] }) => body.items.map((d) => d.userId);

describe('unknown query parameters', () => {
  it.each([
    '/__inspect/deliveries?user=x',
    '/__inspect/notifications?userId=x',
    '/__inspect/requests?statusCode=200',
    '/__inspect/campaigns?state=sent',
    '/__inspect/campaigns/abc?x=1',
    '/__inspect/campaigns/abc/recipients?userId=u',
    '/__inspect/stream?type=delivery',
    '/__scenarios?verbose=1',
    '/__scenarios/anything?x=1',
  ])('%s → 400 naming the parameter and what the endpoint takes', async (path) => {
    const app = makeTestApp();
    const res = await get(app, path);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    const name = /[?&]([^=]+)=/.exec(path)![1]!;
    expect(errorOf(res).details).toEqual({ [name]: 'is not a parameter of this endpoint' });
    expect(errorOf(res).devMessage).toContain(`"${name}"`);
    expect(errorOf(res).devMessage).toMatch(/takes/);
  });

  it('refuses DELETE /__inspect and POST /__reset with an unknown parameter, and changes nothing', async () => {
    const app = await seeded();
    expectApiError(await call(app, 'DELETE', '/__inspect?app=shop'), 400, 'ERR_BAD_REQUEST');
    expectApiError(await call(app, 'POST', '/__reset?app=shop'), 400, 'ERR_BAD_REQUEST');
    expect((await deliveries(app, '/__inspect/deliveries')).total).toBe(6);
  });

  it('refuses a parameter given twice', async () => {
    const res = await get(makeTestApp(), '/__inspect/deliveries?status=sent&status=failed');
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toEqual({ status: 'is given more than once' });
  });

  it('names every bad parameter at once', async () => {
    const res = await get(makeTestApp(), '/__inspect/deliveries?user=x&tmpl=y');
    expect(Object.keys(errorOf(res).details)).toEqual(['user', 'tmpl']);
  });
});

describe('bad enum values', () => {
  it.each([
    ['/__inspect/deliveries?status=delivered', 'status'],
    ['/__inspect/deliveries?mode=instant', 'mode'],
    ['/__inspect/deliveries?order=newest', 'order'],
    ['/__inspect/notifications?mode=x', 'mode'],
    ['/__inspect/requests?method=FETCH', 'method'],
    ['/__inspect/requests?errorCode=ERR_NOPE', 'errorCode'],
    ['/__inspect/requests?order=up', 'order'],
    ['/__inspect/campaigns?status=done', 'status'],
    ['/__inspect/campaigns?order=x', 'order'],
    ['/__inspect/stream?types=emails', 'types'],
  ])('%s → 400 naming %s', async (path, name) => {
    const res = await get(makeTestApp(), path);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    // Named by the parameter (a list parameter by its element: "types.0").
    const [key, ...rest] = Object.keys(errorOf(res).details);
    expect(rest).toEqual([]);
    expect(key === name || key!.startsWith(`${name}.`)).toBe(true);
    expect(errorOf(res).details[key!]).toMatch(/must be/);
  });

  it('accepts every valid value (method in any case)', async () => {
    const app = await seeded();
    expect(users(await deliveries(app, '/__inspect/deliveries?status=sent&mode=realtime'))).toEqual(['c']);
    expect((await list<JournalPage>(app, '/__inspect/requests?method=post')).total).toBe(3);
    expect((await list<JournalPage>(app, '/__inspect/requests?errorCode=ERR_NOT_FOUND')).total).toBe(0);
    expect((await list<NotificationPage>(app, '/__inspect/notifications?mode=batch')).total).toBe(2);
  });
});

describe('an empty value means absent', () => {
  it.each([
    '/__inspect/deliveries?status=&mode=&userId=&limit=&offset=&order=&since=&waitFor=&timeoutMs=',
    '/__inspect/notifications?appId=&mode=&tag=&order=',
    '/__inspect/requests?method=&status=&errorCode=&bodyContains=&scenario=&order=',
  ])('%s answers as without them', async (path) => {
    const app = await seeded();
    const bare = await list<{ total: number }>(app, path.split('?')[0]!);
    const res = await list<{ total: number }>(app, path);
    expect(res.total).toBe(bare.total);
    expect(res.total).toBeGreaterThan(0);
  });

  it('is the same on campaigns, recipients and the stream', async () => {
    const app = makeTestApp();
    expect((await get(app, '/__inspect/campaigns?status=&appId=&order=')).status).toBe(200);
    expectApiError(await get(app, '/__inspect/campaigns/nope/recipients?status='), 404, 'ERR_NOT_FOUND');
  });

  it('but an empty appId on DELETE /__inspect and POST /__reset is a 400, not "every app"', async () => {
    const app = await seeded();
    for (const [method, path] of [
      ['DELETE', '/__inspect?appId='],
      ['POST', '/__reset?appId='],
    ] as const) {
      const res = await call(app, method, path);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(errorOf(res).details).toEqual({ appId: 'must not be empty' });
    }
    expect((await deliveries(app, '/__inspect/deliveries')).total).toBe(6);
  });
});

describe('order=desc', () => {
  it('lists deliveries newest first, offset counted from the newest end', async () => {
    const app = await seeded();
    expect(users(await deliveries(app, '/__inspect/deliveries?order=desc'))).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    expect(users(await deliveries(app, '/__inspect/deliveries?order=desc&offset=1&limit=3'))).toEqual(['e', 'd', 'c']);
    expect(users(await deliveries(app, '/__inspect/deliveries?order=asc&offset=1&limit=3'))).toEqual(['b', 'c', 'd']);
    const filtered = await deliveries(app, '/__inspect/deliveries?order=desc&appId=shop&limit=4');
    expect(filtered.total).toBe(5);
    expect(users(filtered)).toEqual(['f', 'e', 'd', 'b']);
    expect(users(await deliveries(app, '/__inspect/deliveries?order=desc&userId=b'))).toEqual(['b']);
    const beyond = await deliveries(app, '/__inspect/deliveries?order=desc&offset=6');
    expect(beyond).toEqual({ total: 6, items: [] });
  });

  it('holds with waitFor too', async () => {
    const app = await seeded();
    const res = await deliveries(app, '/__inspect/deliveries?order=desc&waitFor=2&appId=shop&limit=2');
    expect(users(res)).toEqual(['f', 'e']);
  });

  it('lists notifications and requests newest first', async () => {
    const app = await seeded();
    const notes = await list<NotificationPage>(app, '/__inspect/notifications?order=desc');
    expect(notes.items.map((n) => n.targetCount)).toEqual([3, 1, 2]);
    const requests = await list<JournalPage>(app, '/__inspect/requests?order=desc&limit=2');
    expect(requests.total).toBe(3);
    expect(requests.items.map((e) => e.appId)).toEqual(['shop', 'blog']);
    const offset = await list<JournalPage>(app, '/__inspect/requests?order=desc&offset=2');
    expect(offset.items.map((e) => e.appId)).toEqual(['shop']);
  });

  it('lists campaigns and recipients newest first', async () => {
    const app = makeTestApp();
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const campaign = await callOk<Campaign>(app, 'POST', '/api/campaigns', {
        name,
        templateId: 'plain',
        deliveryMode: 'batch',
      });
      ids.push(campaign.id);
    }
    const names = async (q: string) =>
      (await list<CampaignPage>(app, `/__inspect/campaigns${q}`)).items.map((c) => c.name);
    expect(await names('?order=desc')).toEqual(['three', 'two', 'one']);
    expect(await names('?order=desc&offset=1&limit=1')).toEqual(['two']);
    expect(await names('?order=desc&offset=2&limit=5')).toEqual(['one']);
    expect(await names('?order=desc&offset=3')).toEqual([]);
    expect(await names('?order=asc&offset=1')).toEqual(['two', 'three']);
    await callOk(app, 'POST', `/api/campaigns/${ids[0]}/recipients`, { userIds: ['u1', 'u2', 'u3'] });
    const recipients = await list<RecipientPage>(app, `/__inspect/campaigns/${ids[0]}/recipients?order=desc&limit=2`);
    expect(recipients.total).toBe(3);
    expect(recipients.items.map((r) => r.userId)).toEqual(['u3', 'u2']);
  });
});

describe('order=desc at a million deliveries', () => {
  it('pages from the newest end by index arithmetic, not a pass over the log', async () => {
    const app = makeTestApp();
    const targets = Array.from({ length: 10_000 }, (_, i) => `user-${i}`);
    for (let i = 0; i < 100; i++) await sendOk(app, { template: { key: 'plain' }, targets, mode: 'batch' });
    const started = performance.now();
    for (let i = 0; i < 50; i++) {
      const res = await deliveries(app, `/__inspect/deliveries?order=desc&offset=${i * 1000}&limit=100`);
      expect(res.total).toBe(1_000_000);
      expect(res.items[0]!.userId).toBe(`user-${9999 - ((i * 1000) % 10_000)}`);
    }
    // 50 pages: a reversed copy of a million records per page would take seconds.
    expect(performance.now() - started).toBeLessThan(3000);
  }, 120_000);
});

describe('GET /__inspect/notifications?notificationId=', () => {
  it('answers that one notification, of any position, and none for an unknown id', async () => {
    const app = makeTestApp();
    const sent = [];
    for (const user of ['u1', 'u2', 'u3'])
      sent.push(await sendOk(app, { template: { key: 'plain' }, targets: [user], mode: 'realtime' }));
    for (const n of sent) {
      const page = await callOk<NotificationPage>(
        app,
        'GET',
        `/__inspect/notifications?notificationId=${n.notificationId}`,
      );
      expect(page.total).toBe(1);
      expect(page.items.map((i) => i.notificationId)).toEqual([n.notificationId]);
    }
    const none = await callOk<NotificationPage>(app, 'GET', '/__inspect/notifications?notificationId=notif_nope');
    expect(none).toMatchObject({ total: 0, items: [] });
  });
});
