/**
 * The control endpoints the web inspector reads beyond the inspect lists: GET /__apps,
 * GET /__apps/{appId}/templates (with sample values), GET /__inspect/deliveries/{id} and
 * GET /__inspect/delivery-stats.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorApp } from '../../src/index.js';
import { BANNER, CTA, expectApiError, makeTestApp, manualClock, call, callOk, send, errorOf } from '../helpers/app.js';
import { withChannel } from '../helpers/channels.js';
import type {
  AppList,
  AppTemplates,
  Delivery,
  DeliveryPage,
  DeliveryStats,
  TemplateView,
} from '../helpers/api-types.js';

let app: EmulatorApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const order = (targets: string[], headers: Record<string, string> = {}) =>
  send(
    app!,
    {
      template: { key: 'order-confirmation', variables: { customerName: 'Ada', cta: CTA, banner: BANNER } },
      targets,
      mode: targets.length > 1 ? 'batch' : 'realtime',
    },
    { headers },
  );

const FAIL_U9 = {
  name: 'fail-u9',
  rules: [{ match: { userId: 'u9*' }, fault: { failDelivery: 'device unreachable' } }],
};

describe('GET /__apps', () => {
  it('lists the configured apps (strict mode) without their keys, with the templates each sees', async () => {
    app = makeTestApp({
      apps: [
        { appId: 'shop', apiKey: 'k1' },
        { appId: 'bank', apiKey: 'k2', region: 'eu' },
      ],
    });
    const res = await call<AppList>(app, 'GET', '/__apps');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      mode: 'strict',
      channelTypes: ['in_app', 'push', 'sms', 'email', 'whatsapp', 'custom'],
      items: [
        { appId: 'bank', region: 'eu', configured: true, templates: 5 },
        { appId: 'shop', region: null, configured: true, templates: 5 },
      ],
    });
    expect(JSON.stringify(res.body)).not.toContain('k1');
  });

  it('in open mode lists the apps seen so far', async () => {
    app = makeTestApp();
    expect((await call<AppList>(app, 'GET', '/__apps')).body).toEqual({
      mode: 'open',
      channelTypes: ['in_app', 'push', 'sms', 'email', 'whatsapp', 'custom'],
      items: [],
    });
    await order(['u1']);
    expect((await call<AppList>(app, 'GET', '/__apps')).body.items).toEqual([
      { appId: 'app-test', region: null, configured: false, templates: 5 },
    ]);
  });

  it('refuses an unknown query parameter', async () => {
    app = makeTestApp();
    const res = await call<AppList>(app, 'GET', '/__apps?limit=3');
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toEqual({ limit: 'is not a parameter of this endpoint' });
  });
});

describe('GET /__apps/{appId}/templates', () => {
  it('gives each template with its schema, channels of the app and a rendered sample', async () => {
    app = makeTestApp();
    const res = await call<AppTemplates>(app, 'GET', '/__apps/app-test/templates');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ appId: 'app-test', authMode: 'open', channels: [] });
    const orderTemplate = res.body.items.find((t) => t.key === 'order-confirmation');
    expect(orderTemplate).toMatchObject({
      status: 'approved',
      channels: ['in_app', 'push'],
      variableList: [
        { key: 'customerName', type: 'string', name: 'Customer name', required: true },
        { key: 'banner', type: 'image', name: 'Banner', required: false },
        { key: 'cta', type: 'action', name: 'Button', required: true },
      ],
    });
    const { variables, rendered } = orderTemplate!.sample;
    // Sample values and rendered content are free-form per template: this one's shapes.
    const cta = variables.cta as { type: string; data: string };
    const content = rendered as Record<string, Record<string, unknown>>;
    expect(typeof variables.customerName).toBe('string');
    expect(variables.banner).toMatchObject({ url: expect.stringMatching(/^https:/), width: expect.any(Number) });
    expect(['web', 'custom']).toContain(cta.type);
    expect(content.in_app!.title).toBe(`Hi ${variables.customerName as string}`);
    expect(content.push!.body).toBe(`Open ${cta.data} {{unknownVar}}`);
  });

  it('gives sample values a send accepts, the same for the same seed and others for another', async () => {
    app = makeTestApp();
    const one = (await call<AppTemplates>(app, 'GET', '/__apps/app-test/templates?seed=5')).body.items;
    const again = (await call<AppTemplates>(app, 'GET', '/__apps/app-test/templates?seed=5')).body.items;
    const other = (await call<AppTemplates>(app, 'GET', '/__apps/app-test/templates?seed=6')).body.items;
    const back = (await call<AppTemplates>(app, 'GET', '/__apps/app-test/templates?seed=5')).body.items;
    expect(again).toEqual(one);
    expect(other[0]!.sample.variables).not.toEqual(one[0]!.sample.variables);
    expect(back).toEqual(one);
    for (const t of one.filter((x) => x.status === 'approved')) {
      const res = await send(app, {
        template: { key: t.key, variables: t.sample.variables },
        targets: ['u1'],
        mode: 'realtime',
      });
      expect(res.status, `${t.key}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it("samples a template's variables as they are now, after an update changed them", async () => {
    const app = makeTestApp();
    const created = await callOk<TemplateView>(
      app,
      'POST',
      '/api/templates',
      await withChannel(app, { name: 'Resampled', variableSchema: { first: { type: 'string' } } }),
      { appId: 'app-test' },
    );
    const sampleOf = async () =>
      (await call<AppTemplates>(app, 'GET', '/__apps/app-test/templates')).body.items.find((t) => t.id === created.id)!
        .sample.variables;
    expect(Object.keys(await sampleOf())).toEqual(['first']);
    await callOk(app, 'PUT', `/api/templates/${created.id}`, { variableSchema: { second: { type: 'image' } } });
    expect(Object.keys(await sampleOf())).toEqual(['second']);
  });

  it('404 for an app that is not configured in strict mode; 400 for a bad seed or unknown parameter', async () => {
    app = makeTestApp({ apps: [{ appId: 'shop', apiKey: 'k1' }] });
    expect((await call<AppTemplates>(app, 'GET', '/__apps/shop/templates')).status).toBe(200);
    expectApiError(await call<AppTemplates>(app, 'GET', '/__apps/nope/templates'), 404, 'ERR_NOT_FOUND');
    for (const q of ['seed=x', 'seed=-1', 'seed=1.5', `seed=${2 ** 31}`]) {
      const res = await call<AppTemplates>(app, 'GET', `/__apps/shop/templates?${q}`);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(errorOf(res).details).toHaveProperty('seed');
    }
    expect((await call<AppTemplates>(app, 'GET', `/__apps/shop/templates?seed=${2 ** 31 - 1}`)).status).toBe(200);
    expect((await call<AppTemplates>(app, 'GET', '/__apps/shop/templates?seed=')).status).toBe(200);
    expectApiError(await call<AppTemplates>(app, 'GET', '/__apps/shop/templates?sed=1'), 400, 'ERR_BAD_REQUEST');
  });
});

describe('GET /__inspect/deliveries/{id}', () => {
  it('finds one-by-one and batch deliveries by id, failures included', async () => {
    app = makeTestApp({ scenarios: [FAIL_U9] });
    await order(['u1']);
    await order(['u2', 'u90', 'u3'], { 'x-emulator-scenario': 'fail-u9' });
    const all = (await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries')).body.items;
    expect(all).toHaveLength(4);
    for (const d of all) {
      const res = await call<Delivery>(app, 'GET', `/__inspect/deliveries/${d.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(d);
    }
    expect((await call<Delivery>(app, 'GET', `/__inspect/deliveries/${all[2]!.id}`)).body).toMatchObject({
      userId: 'u90',
      status: 'failed',
      failureReason: 'device unreachable',
    });
  });

  it('404 envelope for an unknown id, and for one dropped by the retention cap', async () => {
    app = makeTestApp({ maxDeliveries: 2 });
    await order(['u1']);
    const first = (await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries')).body.items[0];
    await order(['u2', 'u3']);
    expectApiError(await call<Delivery>(app, 'GET', `/__inspect/deliveries/${first!.id}`), 404, 'ERR_NOT_FOUND');
    expectApiError(
      await call<Delivery>(app, 'GET', '/__inspect/deliveries/000000000000000000000000'),
      404,
      'ERR_NOT_FOUND',
    );
  });
});

describe('GET /__inspect/delivery-stats', () => {
  it('counts per minute and status over the last hour of the emulator clock, empty minutes included', async () => {
    const clock = manualClock('2030-01-01T10:00:30.000Z');
    app = makeTestApp({ clock, scenarios: [FAIL_U9] });
    await order(['u1']);
    clock.advance(60_000);
    await order(['u2', 'u90', 'u91'], { 'x-emulator-scenario': 'fail-u9' });
    clock.advance(3 * 60_000);
    const res = await call<DeliveryStats>(app, 'GET', '/__inspect/delivery-stats');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      since: '2030-01-01T09:04:30.001Z',
      until: '2030-01-01T10:04:30.000Z',
      bucketMs: 60_000,
      totals: { sent: 2, failed: 2 },
    });
    expect(res.body.buckets).toHaveLength(61);
    expect(res.body.buckets[0]).toEqual({ start: '2030-01-01T09:04:00.000Z', sent: 0, failed: 0 });
    const nonEmpty = res.body.buckets.filter((b) => b.sent + b.failed > 0);
    expect(nonEmpty).toEqual([
      { start: '2030-01-01T10:00:00.000Z', sent: 1, failed: 0 },
      { start: '2030-01-01T10:01:00.000Z', sent: 1, failed: 2 },
    ]);
  });

  it('takes filters, a range and a bucket width', async () => {
    const clock = manualClock('2030-01-01T10:00:00.000Z');
    app = makeTestApp({ clock });
    await order(['u1', 'u2']);
    await order(['u3'], {});
    await send(app, { template: { key: 'plain' }, targets: ['u4'], mode: 'realtime' }, { appId: 'other' });
    const q = 'since=2030-01-01T09:00:00Z&until=2030-01-01T11:00:00Z&bucketMs=3600000';
    const all = (await call<DeliveryStats>(app, 'GET', `/__inspect/delivery-stats?${q}`)).body;
    expect(all.buckets).toEqual([
      { start: '2030-01-01T09:00:00.000Z', sent: 0, failed: 0 },
      { start: '2030-01-01T10:00:00.000Z', sent: 4, failed: 0 },
      { start: '2030-01-01T11:00:00.000Z', sent: 0, failed: 0 },
    ]);
    expect((await call<DeliveryStats>(app, 'GET', `/__inspect/delivery-stats?${q}&appId=other`)).body.totals).toEqual({
      sent: 1,
      failed: 0,
    });
    expect((await call<DeliveryStats>(app, 'GET', `/__inspect/delivery-stats?${q}&mode=batch`)).body.totals.sent).toBe(
      2,
    );
    expect(
      (await call<DeliveryStats>(app, 'GET', `/__inspect/delivery-stats?${q}&templateKey=plain`)).body.totals.sent,
    ).toBe(1);
  });

  it('refuses bad input with the parameter named', async () => {
    app = makeTestApp({ clock: manualClock() });
    const bad: [string, string][] = [
      ['bucketMs=999', 'bucketMs'],
      ['bucketMs=86400001', 'bucketMs'],
      ['bucketMs=abc', 'bucketMs'],
      ['since=yesterday', 'since'],
      ['since=2030-01-02T00:00:00Z&until=2030-01-01T00:00:00Z', 'since'],
      ['bucketMs=1000&since=2029-12-31T00:00:00Z', 'bucketMs'],
      ['status=sent', 'status'],
      ['mode=bulk', 'mode'],
    ];
    for (const [q, field] of bad) {
      const res = await call<DeliveryStats>(app, 'GET', `/__inspect/delivery-stats?${q}`);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(Object.keys(errorOf(res).details), q).toContain(field);
    }
    // 1440 buckets is the limit: 1440 one-minute buckets pass, 1441 do not
    const ok = await call<DeliveryStats>(
      app,
      'GET',
      '/__inspect/delivery-stats?since=2029-12-31T00:00:00Z&until=2029-12-31T23:59:59Z',
    );
    expect(ok.status).toBe(200);
    expect(ok.body.buckets).toHaveLength(1440);
    const over = await call(
      app,
      'GET',
      '/__inspect/delivery-stats?since=2029-12-31T00:00:00Z&until=2030-01-01T00:00:00Z',
    );
    expectApiError(over, 400, 'ERR_BAD_REQUEST');
  });
});
