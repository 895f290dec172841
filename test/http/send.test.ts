import type { Delivery, EmulatorApp, Health, NotificationRecord } from '../../src/index.js';
/**
 * POST /api/notifications/send (docs/reference.md#send-a-notification): template by key or id, variables, targets,
 * modes and limits, the response's eight fields, and the records each call leaves.
 */
import { describe, expect, it } from 'vitest';
import {
  BANNER,
  CTA,
  expectApiError,
  makeTestApp,
  manualClock,
  sendOk,
  type List,
  errorOf,
  renderedTitle,
  call,
  send,
} from '../helpers/app.js';

const ORDER_VARS = { customerName: 'Ada', cta: CTA };
const order = (extra: Record<string, unknown> = {}) => ({
  template: { key: 'order-confirmation', variables: ORDER_VARS },
  targets: ['u1'],
  mode: 'realtime',
  ...extra,
});

describe('POST /api/notifications/send: happy path', () => {
  it('answers 200 with exactly the eight Notification fields', async () => {
    const clock = manualClock('2030-01-02T03:04:05.000Z');
    const app = makeTestApp({ clock });
    const res = await send(app, order());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'channels',
      'createdAt',
      'mode',
      'notificationId',
      'sentFrom',
      'tag',
      'templateKey',
      'title',
    ]);
    expect(res.body).toEqual({
      notificationId: expect.stringMatching(/^notif_[0-9a-f]{24}$/),
      templateKey: 'order-confirmation',
      channels: ['in_app', 'push'],
      mode: 'realtime',
      title: null,
      tag: null,
      sentFrom: 'api',
      createdAt: '2030-01-02T03:04:05.000Z',
    });
  });

  it('echoes title and tag when given', async () => {
    const app = makeTestApp();
    const res = await send(app, order({ title: 'Order 7', tag: 'orders' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Order 7', tag: 'orders' });
  });

  it('finds the template by id as well as by key', async () => {
    const app = makeTestApp();
    const res = await send(app, order({ template: { id: 'aaaaaaaaaaaaaaaaaaaaaaaa', variables: ORDER_VARS } }));
    expect(res.status).toBe(200);
    expect(res.body.templateKey).toBe('order-confirmation');
  });

  it('accepts key and id together when they name the same template', async () => {
    const app = makeTestApp();
    const res = await send(
      app,
      order({ template: { key: 'order-confirmation', id: 'aaaaaaaaaaaaaaaaaaaaaaaa', variables: ORDER_VARS } }),
    );
    expect(res.status).toBe(200);
  });

  it('answers 400 ERR_BAD_REQUEST when key and id name different templates', async () => {
    const app = makeTestApp();
    const plain = await call<Health>(app, 'GET', '/__health');
    expect(plain.status).toBe(200);
    // The id of "plain" is derived from its key; find it through a delivery.
    await sendOk(app, { template: { key: 'plain' }, targets: ['x'], mode: 'realtime' });
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?templateKey=plain');
    const plainId = body.items[0]!.templateId;
    const res = await send(app, order({ template: { key: 'order-confirmation', id: plainId, variables: ORDER_VARS } }));
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('template.id');
  });

  it('answers 404 ERR_NOT_FOUND when key and id are given and the id is unknown', async () => {
    const app = makeTestApp();
    const res = await send(
      app,
      order({ template: { key: 'order-confirmation', id: 'ffffffffffffffffffffffff', variables: ORDER_VARS } }),
    );
    expectApiError(res, 404, 'ERR_NOT_FOUND');
  });

  it('answers 404 ERR_NOT_FOUND naming the key when key and id are given and the key is unknown', async () => {
    const app = makeTestApp();
    const res = await send(
      app,
      order({ template: { key: 'nope', id: 'aaaaaaaaaaaaaaaaaaaaaaaa', variables: ORDER_VARS } }),
    );
    expect(expectApiError(res, 404, 'ERR_NOT_FOUND').devMessage).toContain('"nope"');
  });

  it('answers 404 ERR_NOT_FOUND for an unknown key or id', async () => {
    const app = makeTestApp();
    expectApiError(await send(app, order({ template: { key: 'nope' } })), 404, 'ERR_NOT_FOUND');
    expectApiError(await send(app, order({ template: { id: 'ffffffffffffffffffffffff' } })), 404, 'ERR_NOT_FOUND');
  });

  it('serves the same send under the production prefix', async () => {
    const app = makeTestApp();
    const res = await call(app, 'POST', '/v3/business-messaging/api/notifications/send', order());
    expect(res.status).toBe(200);
  });
});

describe('POST /api/notifications/send: template status', () => {
  it.each(['draft-one', 'archived-one'])('answers 400 ERR_TEMPLATE_NOT_APPROVED for %s', async (key) => {
    const app = makeTestApp();
    const res = await send(app, { template: { key }, targets: ['u1'], mode: 'realtime' });
    expectApiError(res, 400, 'ERR_TEMPLATE_NOT_APPROVED');
  });
});

describe('POST /api/notifications/send: variables', () => {
  const app = makeTestApp();
  const withVars = (variables: unknown) => send(app, order({ template: { key: 'order-confirmation', variables } }));

  it('accepts an omitted optional variable and a given one', async () => {
    expect((await withVars(ORDER_VARS)).status).toBe(200);
    expect((await withVars({ ...ORDER_VARS, banner: BANNER })).status).toBe(200);
  });

  it('answers 400 ERR_INVALID_VARIABLES naming a missing required variable', async () => {
    const res = await withVars({ cta: CTA });
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(Object.keys(errorOf(res).details)).toEqual(['template.variables.customerName']);
  });

  it('answers 400 ERR_INVALID_VARIABLES when variables are absent but required', async () => {
    const res = await send(app, { template: { key: 'order-confirmation' }, targets: ['u1'], mode: 'realtime' });
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(errorOf(res).details).toHaveProperty(['template.variables.customerName']);
    expect(errorOf(res).details).toHaveProperty(['template.variables.cta']);
  });

  it('answers 400 ERR_INVALID_VARIABLES for an undeclared variable', async () => {
    const res = await withVars({ ...ORDER_VARS, coupon: 'X' });
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(errorOf(res).details).toHaveProperty(['template.variables.coupon']);
  });

  it('answers 400 ERR_INVALID_VARIABLES when a string variable is not a string', async () => {
    const res = await withVars({ ...ORDER_VARS, customerName: 5 });
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(errorOf(res).details).toHaveProperty(['template.variables.customerName']);
  });

  it.each([
    ['a string', 'https://x/y.png'],
    ['missing url', { width: 1, height: 1 }],
    ['missing width', { url: 'u', height: 1 }],
    ['string height', { url: 'u', width: 1, height: '1' }],
    ['an array', [BANNER]],
  ])('answers 400 ERR_INVALID_VARIABLES for an image that is %s', async (_what, banner) => {
    const res = await withVars({ ...ORDER_VARS, banner });
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(Object.keys(errorOf(res).details)).toEqual(['template.variables.banner']);
  });

  it.each([
    ['a string', 'https://x'],
    ['an unknown type', { type: 'deeplink', data: 'x' }],
    ['missing data', { type: 'web' }],
    ['numeric data', { type: 'custom', data: 5 }],
  ])('answers 400 ERR_INVALID_VARIABLES for an action that is %s', async (_what, cta) => {
    const res = await withVars({ ...ORDER_VARS, cta });
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(Object.keys(errorOf(res).details)).toEqual(['template.variables.cta']);
  });

  it('accepts an action of type custom', async () => {
    expect((await withVars({ ...ORDER_VARS, cta: { type: 'custom', data: 'open://x' } })).status).toBe(200);
  });

  it('accepts the map form of variableSchema (required by default)', async () => {
    expect(
      (await send(app, { template: { key: 'greeting', variables: { name: 'Bo' } }, targets: ['u'], mode: 'realtime' }))
        .status,
    ).toBe(200);
    expectApiError(
      await send(app, { template: { key: 'greeting' }, targets: ['u'], mode: 'realtime' }),
      400,
      'ERR_INVALID_VARIABLES',
    );
  });

  it('answers 400 ERR_INVALID_VARIABLES for an undeclared "__proto__" variable', async () => {
    const raw = '{"template":{"key":"plain","variables":{"__proto__":{"x":1}}},"targets":["u"],"mode":"realtime"}';
    const res = await call(app, 'POST', '/api/notifications/send', undefined, {
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(Object.keys(errorOf(res).details)).toEqual(['template.variables.__proto__']);
  });

  it('answers 400 ERR_BAD_REQUEST when variables is not an object', async () => {
    const res = await withVars(['a']);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty(['template.variables']);
  });
});

describe('POST /api/notifications/send: batch variables keyed by target', () => {
  const sendGreetingBatch = (app: EmulatorApp, variables: Record<string, unknown>, targets: string[]) =>
    send(app, { template: { key: 'greeting', variables }, targets, mode: 'batch' });
  const titlesByUser = async (app: EmulatorApp) => {
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries');
    return Object.fromEntries(body.items.map((d) => [d.userId, renderedTitle(d)]));
  };

  it('accepts a per-target map and renders each target with its own values', async () => {
    const app = makeTestApp();
    const res = await sendGreetingBatch(app, { a: { name: 'Ann' }, b: { name: 'Ben' } }, ['a', 'b']);
    expect(res.status).toBe(200);
    expect(await titlesByUser(app)).toEqual({ a: 'Hi Ann', b: 'Hi Ben' });
  });

  it('answers 400 ERR_INVALID_VARIABLES keyed by target when one target lacks a value', async () => {
    const app = makeTestApp();
    const res = await sendGreetingBatch(app, { a: { name: 'Ann' }, b: {} }, ['a', 'b']);
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(errorOf(res).details).toHaveProperty(['template.variables.b.name']);
  });

  it('matches the map to the targets by key whatever its order', async () => {
    const app = makeTestApp();
    const res = await sendGreetingBatch(app, { c: { name: 'Cy' }, a: { name: 'Ann' }, b: { name: 'Ben' } }, [
      'a',
      'b',
      'c',
    ]);
    expect(res.status).toBe(200);
    expect(await titlesByUser(app)).toEqual({ a: 'Hi Ann', b: 'Hi Ben', c: 'Hi Cy' });
  });

  it('gives a target the map leaves out no variables, even one named like an Object method', async () => {
    const app = makeTestApp();
    const res = await sendGreetingBatch(app, { a: { name: 'Ann' } }, ['a', 'toString']);
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(Object.keys(errorOf(res).details ?? {})).toEqual(['template.variables.toString.name']);
  });

  it('reads a map with a key that is not a target as shared variables', async () => {
    const app = makeTestApp();
    const res = await sendGreetingBatch(app, { a: { name: 'Ann' }, z: { name: 'Zed' } }, ['a', 'b']);
    expectApiError(res, 400, 'ERR_INVALID_VARIABLES');
    expect(errorOf(res).details).toHaveProperty(['template.variables.z']);
    expect(errorOf(res).details).toHaveProperty(['template.variables.name']);
  });

  it('applies a flat map to every target in batch mode', async () => {
    const app = makeTestApp();
    const res = await sendGreetingBatch(app, { name: 'All' }, ['a', 'b']);
    expect(res.status).toBe(200);
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries');
    expect(body.items.map((d) => renderedTitle(d))).toEqual(['Hi All', 'Hi All']);
  });
});

describe('POST /api/notifications/send: targets and modes', () => {
  const app = makeTestApp();
  const plain = (targets: unknown, mode: unknown = 'batch') => send(app, { template: { key: 'plain' }, targets, mode });

  it('answers 400 ERR_TARGET_LIMIT_EXCEEDED for 2 targets in realtime mode', async () => {
    expectApiError(await plain(['a', 'b'], 'realtime'), 400, 'ERR_TARGET_LIMIT_EXCEEDED');
  });

  it('accepts exactly 10,000 targets in batch mode and refuses 10,001', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `user-${i}`);
    expect((await plain(many.slice(0, 10_000))).status).toBe(200);
    const res = await plain(many);
    expectApiError(res, 400, 'ERR_TARGET_LIMIT_EXCEEDED');
    expect(errorOf(res).details).toHaveProperty('targets');
  });

  it('answers 400 ERR_BAD_REQUEST for empty targets, with details.targets', async () => {
    const res = await plain([]);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('targets');
  });

  it.each([[['']], [['  ']], [[5]], [[null]], ['u1'], [{ a: 1 }]])(
    'answers 400 ERR_BAD_REQUEST for targets %j',
    async (targets) => {
      const res = await plain(targets);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(Object.keys(errorOf(res).details).some((k) => k.startsWith('targets'))).toBe(true);
    },
  );

  it.each(['broadcast', '', 'REALTIME'])('answers 400 ERR_INVALID_MODE for mode %j', async (mode) => {
    const res = await plain(['a'], mode);
    expectApiError(res, 400, 'ERR_INVALID_MODE');
    expect(errorOf(res).details).toHaveProperty('mode');
  });

  it('answers 400 ERR_BAD_REQUEST when mode is missing or not a string', async () => {
    expectApiError(await send(app, { template: { key: 'plain' }, targets: ['a'] }), 400, 'ERR_BAD_REQUEST');
    expectApiError(await plain(['a'], 7), 400, 'ERR_BAD_REQUEST');
  });

  it('counts targets as given, before duplicates are removed (realtime ["u1","u1"] is 2)', async () => {
    expectApiError(await plain(['u1', 'u1'], 'realtime'), 400, 'ERR_TARGET_LIMIT_EXCEEDED');
  });

  it('delivers duplicate targets once', async () => {
    const local = makeTestApp();
    const res = await send(local, { template: { key: 'plain' }, targets: ['a', 'b', 'a'], mode: 'batch' });
    expect(res.status).toBe(200);
    const { body } = await call<List<Delivery>>(local, 'GET', '/__inspect/deliveries');
    expect(body.items.map((d) => d.userId)).toEqual(['a', 'b']);
  });

  it.each([['x'], [[1]], [5]])(
    'answers 400 ERR_BAD_REQUEST when notificationPushData is %j',
    async (notificationPushData) => {
      const res = await send(app, {
        template: { key: 'plain', notificationPushData },
        targets: ['a'],
        mode: 'realtime',
      });
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(errorOf(res).details).toHaveProperty(['template.notificationPushData']);
    },
  );

  it('treats null variables, notificationPushData, title and tag as omitted', async () => {
    const local = makeTestApp();
    const res = await send(local, {
      template: { key: 'plain', variables: null, notificationPushData: null },
      targets: ['a'],
      mode: 'realtime',
      title: null,
      tag: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: null, tag: null });
    const { body } = await call<List<Delivery>>(local, 'GET', '/__inspect/deliveries');
    expect(body.items[0]).toMatchObject({ variables: {}, pushData: null });
  });

  it('answers 400 ERR_BAD_REQUEST when title or tag is not a string', async () => {
    expectApiError(
      await send(app, { template: { key: 'plain' }, targets: ['a'], mode: 'realtime', title: 5 }),
      400,
      'ERR_BAD_REQUEST',
    );
    expectApiError(
      await send(app, { template: { key: 'plain' }, targets: ['a'], mode: 'realtime', tag: {} }),
      400,
      'ERR_BAD_REQUEST',
    );
  });

  it('answers 400 ERR_BAD_REQUEST when neither key nor id is given', async () => {
    const res = await send(app, { template: { variables: {} }, targets: ['a'], mode: 'realtime' });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(res).details)[0]).toMatch(/^template/);
  });
});

describe('POST /api/notifications/send: records', () => {
  it('records one delivery per target with rendered content and one notification per call', async () => {
    const clock = manualClock('2030-05-05T00:00:00.000Z');
    const app = makeTestApp({ clock });
    const res = await send(app, {
      template: {
        key: 'order-confirmation',
        variables: { ...ORDER_VARS, banner: BANNER },
        notificationPushData: { sound: 'ding' },
      },
      targets: ['u1'],
      mode: 'realtime',
      title: 'T',
      tag: 'g',
    });
    expect(res.status).toBe(200);
    const deliveries = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries');
    expect(deliveries.body.total).toBe(1);
    const d = deliveries.body.items[0]!;
    expect(d).toMatchObject({
      appId: 'app-test',
      notificationId: res.body.notificationId,
      campaignId: null,
      userId: 'u1',
      templateId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      templateKey: 'order-confirmation',
      channels: ['in_app', 'push'],
      mode: 'realtime',
      title: 'T',
      tag: 'g',
      pushData: { sound: 'ding' },
      status: 'sent',
      failureReason: null,
      scenario: null,
      createdAt: '2030-05-05T00:00:00.000Z',
    });
    expect(d.rendered).toEqual({
      in_app: { title: 'Hi Ada', body: 'See https://cdn.example/b.png', button: 'https://shop.example/track' },
      push: { title: 'Order for Ada', body: 'Open https://shop.example/track {{unknownVar}}' },
    });
    const notes = await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications');
    expect(notes.body.total).toBe(1);
    expect(notes.body.items[0]).toMatchObject({
      notificationId: res.body.notificationId,
      appId: 'app-test',
      targetCount: 1,
    });
  });

  it('leaves an optional image placeholder literal when the image is omitted', async () => {
    const app = makeTestApp();
    await sendOk(app, order());
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries');
    expect((body.items[0]!.rendered as { in_app: { body: string } }).in_app.body).toBe('See {{banner}}');
  });

  it('records nothing for a refused send', async () => {
    const app = makeTestApp();
    expectApiError(await send(app, order({ targets: ['a', 'b'] })), 400, 'ERR_TARGET_LIMIT_EXCEEDED');
    expect((await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries')).body.total).toBe(0);
    expect((await call<List<NotificationRecord>>(app, 'GET', '/__inspect/notifications')).body.total).toBe(0);
  });

  it('gives each call a distinct notificationId', async () => {
    const app = makeTestApp();
    const a = await send(app, order());
    const b = await send(app, order());
    expect(a.body.notificationId).not.toBe(b.body.notificationId);
  });
});
