import type { TemplateView } from '../helpers/api-types.js';
import { describe, expect, it } from 'vitest';
import {
  CTA,
  expectApiError,
  makeTestApp,
  manualClock,
  callOk,
  type List,
  errorOf,
  call,
  send,
} from '../helpers/app.js';
import type { EmulatorApp, Delivery } from '../../src/index.js';
import { withChannel } from '../helpers/channels.js';

const IN_APP = { name: 'In-App Alerts', type: 'in_app', templateType: 'ui' };

async function inAppChannel(app: EmulatorApp, appId = 'app-test'): Promise<string> {
  return (await callOk<{ id: string }>(app, 'POST', '/api/channels', IN_APP, { appId })).id;
}

async function createTemplate(app: EmulatorApp, body: Record<string, unknown>, appId = 'app-test') {
  return call<TemplateView>(app, 'POST', '/api/templates', await withChannel(app, body, { appId }), { appId });
}

describe('POST /api/templates', () => {
  it("creates a draft template in the real service's shape with an auto slug", async () => {
    const app = makeTestApp({ clock: manualClock() });
    const channelId = await inAppChannel(app);
    const res = await createTemplate(app, {
      name: 'Welcome Message',
      category: 'onboarding',
      channelIds: [channelId],
      variableSchema: { userName: { type: 'string' }, profileUrl: { type: 'action' } },
      config: {},
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      appId: 'app-test',
      name: 'Welcome Message',
      templateId: 'welcome-message',
      key: 'welcome-message',
      status: 'draft',
      category: 'onboarding',
      channelIds: [channelId],
      channels: ['in_app'],
      variableSchema: {
        userName: { type: 'string', name: 'userName', required: true },
        profileUrl: { type: 'action', name: 'profileUrl', required: true },
      },
      config: {},
      availability: null,
      sequence: null,
      content: {},
      source: 'runtime',
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
  });

  it("takes a custom templateId slug and the spec's array form of variableSchema", async () => {
    const app = makeTestApp();
    const res = await createTemplate(app, {
      name: 'Anything',
      templateId: 'custom-slug',
      variableSchema: [{ key: 'a', type: 'string', required: false }],
    });
    expect(res.body).toMatchObject({
      templateId: 'custom-slug',
      variableSchema: { a: { type: 'string', required: false } },
    });
  });

  it('answers 400 naming a missing name, missing channelIds, a bad slug and a bad variable type', async () => {
    const app = makeTestApp();
    const res = await call<TemplateView>(app, 'POST', '/api/templates', {
      templateId: 'bad slug!',
      variableSchema: { x: { type: 'video' } },
    });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('name');
    expect(errorOf(res).details).toHaveProperty('channelIds');
    expect(errorOf(res).details).toHaveProperty('templateId');
    expect(Object.keys(errorOf(res).details).some((k) => k.startsWith('variableSchema'))).toBe(true);
  });

  it("answers 400 ERR_BAD_REQUEST for a duplicate slug, including a shared fixture template's key", async () => {
    const app = makeTestApp();
    expect((await createTemplate(app, { name: 'Promo' })).status).toBe(200);
    const dup = await createTemplate(app, { name: 'Other', templateId: 'promo' });
    expectApiError(dup, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(dup).details.templateId).toMatch(/already used/);
    expectApiError(await createTemplate(app, { name: 'Order Confirmation' }), 400, 'ERR_BAD_REQUEST');
  });

  it('lets two apps use the same slug', async () => {
    const app = makeTestApp();
    expect((await createTemplate(app, { name: 'Promo' }, 'app-a')).status).toBe(200);
    expect((await createTemplate(app, { name: 'Promo' }, 'app-b')).status).toBe(200);
  });

  it('answers 400 ERR_BAD_REQUEST for channelIds that are unknown or belong to another app', async () => {
    const app = makeTestApp();
    const foreign = await inAppChannel(app, 'app-b');
    const res = await createTemplate(app, { name: 'X', channelIds: ['ffffffffffffffffffffffff', foreign] }, 'app-a');
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(res).details)).toEqual(['channelIds.0', 'channelIds.1']);
  });

  it.each(['/api/templates', '/v3/business-messaging/api/templates'])(
    'answers 400 naming channelIds for an empty list under %s, and creates nothing',
    async (path) => {
      const app = makeTestApp();
      const list = async () => (await callOk<TemplateView[]>(app, 'GET', '/api/templates?limit=1000')).map((t) => t.id);
      const before = await list();
      const res = await call<TemplateView>(app, 'POST', path, { name: 'Unlinked', channelIds: [] });
      expect(expectApiError(res, 400, 'ERR_BAD_REQUEST').details).toEqual({
        channelIds: 'must name at least one channel: a template is linked to one or more channels',
      });
      expect(errorOf(res).devMessage).toContain('channelIds');
      expect(await list()).toEqual(before);
      expectApiError(await call(app, 'GET', '/api/templates/unlinked'), 404, 'ERR_NOT_FOUND');
    },
  );

  it('answers 400 ERR_BAD_REQUEST for a variable declared twice', async () => {
    const res = await createTemplate(makeTestApp(), {
      name: 'X',
      variableSchema: [
        { key: 'a', type: 'string' },
        { key: 'a', type: 'image' },
      ],
    });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toEqual({ 'variableSchema.1.key': 'variable "a" is declared twice' });
  });
});

describe('GET /api/templates', () => {
  it("lists shared fixture templates and the app's own, not another app's, as a bare array", async () => {
    const app = makeTestApp();
    expect((await createTemplate(app, { name: 'Mine' }, 'app-a')).status).toBe(200);
    expect((await createTemplate(app, { name: 'Theirs' }, 'app-b')).status).toBe(200);
    const res = await call<TemplateView[]>(app, 'GET', '/api/templates', undefined, { appId: 'app-a' });
    expect(res.status).toBe(200);
    const keys = res.body.map((t: { templateId: string }) => t.templateId);
    expect(keys).toContain('mine');
    expect(keys).toContain('order-confirmation');
    expect(keys).not.toContain('theirs');
    const fixture = res.body.find((t: { key: string }) => t.key === 'order-confirmation');
    expect(fixture).toMatchObject({
      id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      appId: 'app-a',
      source: 'fixture',
      status: 'approved',
    });
  });

  it('filters by channelId: runtime templates by their links, fixtures by their channel types', async () => {
    const app = makeTestApp();
    const channelId = await inAppChannel(app);
    expect((await createTemplate(app, { name: 'Linked', channelIds: [channelId] })).status).toBe(200);
    expect((await createTemplate(app, { name: 'Unlinked' })).status).toBe(200);
    const res = await call<TemplateView[]>(app, 'GET', `/api/templates?channelId=${channelId}`);
    const keys = res.body.map((t: { key: string }) => t.key);
    expect(keys).toContain('linked');
    expect(keys).toContain('order-confirmation');
    expect(keys).not.toContain('unlinked');
    expect((await call<TemplateView[]>(app, 'GET', '/api/templates?channelId=ffffffffffffffffffffffff')).body).toEqual(
      [],
    );
    const byKey = await call<TemplateView[]>(app, 'GET', '/api/templates?channelId=in-app-alerts');
    expect(byKey.body).toEqual(res.body);
  });
});

describe('GET /api/templates/{id}', () => {
  it('gets a template by id and by slug', async () => {
    const app = makeTestApp();
    const created = (await createTemplate(app, { name: 'Promo' })).body;
    expect((await call<TemplateView>(app, 'GET', `/api/templates/${created.id}`)).body).toEqual(created);
    expect((await call<TemplateView>(app, 'GET', '/api/templates/promo')).body).toEqual(created);
  });

  it("answers 404 ERR_NOT_FOUND for an unknown id and for another app's template", async () => {
    const app = makeTestApp();
    const created = (await createTemplate(app, { name: 'Promo' }, 'app-a')).body;
    expectApiError(await call<TemplateView>(app, 'GET', '/api/templates/nope'), 404, 'ERR_NOT_FOUND');
    expectApiError(
      await call<TemplateView>(app, 'GET', `/api/templates/${created.id}`, undefined, { appId: 'app-b' }),
      404,
      'ERR_NOT_FOUND',
    );
  });
});

describe('PUT /api/templates/{id}', () => {
  it('approves a draft and updates fields; updatedAt advances', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const created = (await createTemplate(app, { name: 'Promo' })).body;
    clock.advance(1000);
    const res = await call<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, {
      status: 'approved',
      name: 'Promo 2',
      category: 'marketing',
      sequence: 3,
      availability: 'all',
      variableSchema: { customerName: { type: 'string' }, trackingUrl: { type: 'action' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      templateId: 'promo',
      status: 'approved',
      name: 'Promo 2',
      category: 'marketing',
      sequence: 3,
      availability: 'all',
    });
    expect(Object.keys(res.body.variableSchema)).toEqual(['customerName', 'trackingUrl']);
    expect(res.body.updatedAt).toBe('2030-01-01T00:00:01.000Z');
  });

  it.each([
    [['draft']],
    [['approved']],
    [['archived']],
    [['approved', 'approved', 'archived']],
    [['archived', 'draft', 'approved']],
  ])('allows the status path draft → %j', async (path) => {
    const app = makeTestApp();
    const created = (await createTemplate(app, { name: 'Promo' })).body;
    for (const status of path) {
      const res = await call<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.status).toBe(status);
    }
  });

  it('answers 400 ERR_BAD_REQUEST for approved → draft and archived → approved', async () => {
    const app = makeTestApp();
    const created = (await createTemplate(app, { name: 'Promo' })).body;
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'approved' });
    const back = await call<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'draft' });
    expectApiError(back, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(back).details.status).toMatch(/"approved" to "draft"/);
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'archived' });
    expectApiError(
      await call<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'approved' }),
      400,
      'ERR_BAD_REQUEST',
    );
  });

  it('answers 400 ERR_BAD_REQUEST for an unknown status and for changing the slug', async () => {
    const app = makeTestApp();
    const created = (await createTemplate(app, { name: 'Promo' })).body;
    const bad = await call<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'published' });
    expectApiError(bad, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(bad).details).toHaveProperty('status');
    const slug = await call<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { templateId: 'renamed' });
    expectApiError(slug, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(slug).details.templateId).toMatch(/immutable/);
  });

  it('answers 400 naming channelIds for an empty list, and leaves the template as it was', async () => {
    const app = makeTestApp();
    const created = (await createTemplate(app, { name: 'Promo' })).body;
    const res = await call<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, {
      name: 'Renamed',
      channelIds: [],
    });
    expect(expectApiError(res, 400, 'ERR_BAD_REQUEST').details).toEqual({
      channelIds: 'must name at least one channel: a template is linked to one or more channels',
    });
    expect(await callOk<TemplateView>(app, 'GET', `/api/templates/${created.id}`)).toEqual(created);
  });

  it("answers 404 ERR_NOT_FOUND for another app's template", async () => {
    const app = makeTestApp();
    const created = (await createTemplate(app, { name: 'Promo' }, 'app-a')).body;
    expectApiError(
      await call<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { name: 'x' }, { appId: 'app-b' }),
      404,
      'ERR_NOT_FOUND',
    );
  });

  it('on a shared fixture template creates an override for the calling app only (same id and key)', async () => {
    const app = makeTestApp();
    const res = await call<TemplateView>(
      app,
      'PUT',
      '/api/templates/plain',
      { status: 'archived' },
      { appId: 'app-a' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: 'plain', status: 'archived', source: 'runtime', appId: 'app-a' });
    const fixtureId = (await call<TemplateView>(app, 'GET', '/api/templates/plain', undefined, { appId: 'app-b' })).body
      .id;
    expect(res.body.id).toBe(fixtureId);
    expectApiError(
      await send(app, { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' }, { appId: 'app-a' }),
      400,
      'ERR_TEMPLATE_NOT_APPROVED',
    );
    expect(
      (await send(app, { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' }, { appId: 'app-b' })).status,
    ).toBe(200);
    expect(
      (await call<TemplateView[]>(app, 'GET', '/api/templates', undefined, { appId: 'app-a' })).body.filter(
        (t: { key: string }) => t.key === 'plain',
      ),
    ).toHaveLength(1);
  });
});

describe('DELETE /api/templates/{id}', () => {
  it('hard-deletes a runtime template and answers {success: true}', async () => {
    const app = makeTestApp();
    const created = (await createTemplate(app, { name: 'Promo' })).body;
    const res = await call<{ success: boolean }>(app, 'DELETE', `/api/templates/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectApiError(await call<TemplateView>(app, 'GET', `/api/templates/${created.id}`), 404, 'ERR_NOT_FOUND');
    expectApiError(
      await call<{ success: boolean }>(app, 'DELETE', `/api/templates/${created.id}`),
      404,
      'ERR_NOT_FOUND',
    );
  });

  it('answers 400 ERR_BAD_REQUEST for a fixture template (read-only)', async () => {
    const res = await call(makeTestApp(), 'DELETE', '/api/templates/plain');
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).devMessage).toMatch(/read-only/);
  });

  it('deleting an override brings the shared fixture template back', async () => {
    const app = makeTestApp();
    await callOk<TemplateView>(app, 'PUT', '/api/templates/plain', { status: 'archived' });
    expect((await call<{ success: boolean }>(app, 'DELETE', '/api/templates/plain')).status).toBe(200);
    expect((await call<TemplateView>(app, 'GET', '/api/templates/plain')).body).toMatchObject({
      status: 'approved',
      source: 'fixture',
    });
  });

  it("answers 404 ERR_NOT_FOUND for another app's template and leaves it in place", async () => {
    const app = makeTestApp();
    const created = (await createTemplate(app, { name: 'Promo' }, 'app-a')).body;
    expectApiError(
      await call<{ success: boolean }>(app, 'DELETE', `/api/templates/${created.id}`, undefined, { appId: 'app-b' }),
      404,
      'ERR_NOT_FOUND',
    );
    expect(
      (await call<TemplateView>(app, 'GET', `/api/templates/${created.id}`, undefined, { appId: 'app-a' })).status,
    ).toBe(200);
  });
});

describe('sending with a runtime template', () => {
  const body = (ref: Record<string, string>) => ({
    template: { ...ref, variables: { customerName: 'Ada', cta: CTA } },
    targets: ['user-1'],
    mode: 'realtime',
  });

  async function runtimeTemplate(app: EmulatorApp) {
    const channelId = await inAppChannel(app);
    return (
      await createTemplate(app, {
        name: 'Shipped',
        channelIds: [channelId],
        variableSchema: { customerName: { type: 'string' }, cta: { type: 'action' } },
        content: { in_app: { title: 'Hi {{customerName}}', url: '{{cta}}' } },
      })
    ).body;
  }

  it('answers 400 ERR_TEMPLATE_NOT_APPROVED while the template is a draft', async () => {
    const app = makeTestApp();
    const created = await runtimeTemplate(app);
    expectApiError(await send(app, body({ key: created.templateId })), 400, 'ERR_TEMPLATE_NOT_APPROVED');
  });

  it('sends once approved, through the linked channel types, with rendered content', async () => {
    const app = makeTestApp();
    const created = await runtimeTemplate(app);
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'approved' });
    const res = await send(app, body({ id: created.id }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ templateKey: 'shipped', channels: ['in_app'], mode: 'realtime' });
    const deliveries = (
      await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?notificationId=${res.body.notificationId}`)
    ).body;
    expect(deliveries.items[0]!.rendered).toEqual({ in_app: { title: 'Hi Ada', url: CTA.data } });
  });

  it('a content PUT applies to later sends only: earlier deliveries, one or a batch, keep their content', async () => {
    // Deliveries are rendered when read (store/delivery-run.ts), from the content of their send.
    const app = makeTestApp();
    const created = await runtimeTemplate(app);
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'approved' });
    const before = await send(app, body({ id: created.id }));
    const batch = await send(app, { ...body({ id: created.id }), targets: ['user-2', 'user-3'], mode: 'batch' });
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, {
      content: { in_app: { title: 'Bye {{customerName}}' } },
    });
    const after = await send(app, body({ id: created.id }));
    const titles = async (query: string) =>
      (await callOk<List<Delivery>>(app, 'GET', `/__inspect/deliveries?${query}`)).items.map(
        (d) => (d.rendered as { in_app: { title: string } }).in_app.title,
      );
    expect(await titles('order=asc')).toEqual(['Hi Ada', 'Hi Ada', 'Hi Ada', 'Bye Ada']);
    expect(await titles('userId=user-1')).toEqual(['Hi Ada', 'Bye Ada']);
    expect(await titles(`notificationId=${batch.body.notificationId}`)).toEqual(['Hi Ada', 'Hi Ada']);
    const [first] = (
      await callOk<List<Delivery>>(app, 'GET', `/__inspect/deliveries?notificationId=${before.body.notificationId}`)
    ).items;
    const byId = await callOk<Delivery>(app, 'GET', `/__inspect/deliveries/${first!.id}`);
    expect(byId).toEqual(first);
    expect(byId.rendered).toEqual({ in_app: { title: 'Hi Ada', url: CTA.data } });
    expect(after.status).toBe(200);
  });

  it("is invisible to another app's sends (404)", async () => {
    const app = makeTestApp();
    const created = await runtimeTemplate(app);
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'approved' });
    expectApiError(await send(app, body({ key: 'shipped' }), { appId: 'other' }), 404, 'ERR_NOT_FOUND');
  });
});
