import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, manualClock, call, errorOf, callOk } from '../helpers/app.js';
import type { Channel, TemplateChannel, TemplateView } from '../helpers/api-types.js';
import type { EmulatorApp } from '../../src/index.js';

const IN_APP = { name: 'In-App Alerts', type: 'in_app', templateType: 'ui' };
const PUSH = { name: 'Mobile Push', type: 'push', templateType: 'data' };
const CONTENT = { title: 'Thanks, {{customerName}}', body: 'Order {{orderId}}', actionUrl: '{{viewOrderUrl}}' };

/** An app with an in-app and a push channel and a draft template linked to both. */
async function setup(app: EmulatorApp, appId = 'app-test') {
  const inApp = (await callOk<Channel>(app, 'POST', '/api/channels', IN_APP, { appId })).id;
  const push = (await callOk<Channel>(app, 'POST', '/api/channels', PUSH, { appId })).id;
  const template = await callOk<TemplateView>(
    app,
    'POST',
    '/api/templates',
    { name: 'Order Update', channelIds: [inApp, push] },
    { appId },
  );
  return { inApp, push, templateId: template.id };
}

const row = (templateId: string, channelId: string, channelType = 'in_app', content: object = CONTENT) => ({
  templateId,
  channelId,
  channelType,
  content,
});

describe('POST /api/template-channels', () => {
  it('creates a row in the documented shape', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const { inApp, templateId } = await setup(app);
    const res = await call<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      templateId,
      channelId: inApp,
      channelType: 'in_app',
      content: CONTENT,
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
  });

  it('takes the template slug and the channel key too, and answers with their ids', async () => {
    const app = makeTestApp();
    const { inApp, templateId } = await setup(app);
    const res = await call<TemplateChannel>(
      app,
      'POST',
      '/api/template-channels',
      row('order-update', 'in-app-alerts'),
    );
    expect(res.body).toMatchObject({ templateId, channelId: inApp });
  });

  it('answers 400 naming every missing field', async () => {
    const app = makeTestApp();
    const res = await call<TemplateChannel>(app, 'POST', '/api/template-channels', {});
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(res).details).sort()).toEqual(['channelId', 'channelType', 'content', 'templateId']);
  });

  it('answers 400 for an unknown channelType, blank ids and a content that is not an object', async () => {
    const app = makeTestApp();
    const res = await call<TemplateChannel>(app, 'POST', '/api/template-channels', {
      templateId: ' ',
      channelId: '',
      channelType: 'pager',
      content: ['x'],
    });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toMatchObject({
      templateId: expect.stringMatching(/required/),
      channelId: expect.stringMatching(/required/),
      channelType: expect.stringMatching(/in_app, push/),
      content: expect.stringMatching(/JSON object/),
    });
  });

  it('answers 404 naming templateId or channelId when either is unknown in this app', async () => {
    const app = makeTestApp();
    const { inApp, templateId } = await setup(app);
    const noTemplate = await call<TemplateChannel>(
      app,
      'POST',
      '/api/template-channels',
      row('aaaaaaaaaaaaaaaaaaaaaaa0', inApp),
    );
    expectApiError(noTemplate, 404, 'ERR_NOT_FOUND');
    expect(errorOf(noTemplate).details).toHaveProperty('templateId');
    const noChannel = await call<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, 'nope'));
    expectApiError(noChannel, 404, 'ERR_NOT_FOUND');
    expect(errorOf(noChannel).details).toHaveProperty('channelId');
  });

  it('answers 400 naming channelType when it is not the type of the channel', async () => {
    const app = makeTestApp();
    const { push, templateId } = await setup(app);
    const res = await call<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, push, 'in_app'));
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toEqual({ channelType: expect.stringMatching(/must be "push"/) });
  });

  it('answers 400 naming channelId for a channel that is not linked to the template', async () => {
    const app = makeTestApp();
    const { templateId } = await setup(app);
    const other = (await call<Channel>(app, 'POST', '/api/channels', { ...IN_APP, name: 'Other' })).body.id;
    const res = await call<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, other));
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details.channelId).toMatch(/not one of template .*channelIds/);
  });

  it('answers 400 naming the pair for a second row of the same template and channel', async () => {
    const app = makeTestApp();
    const { inApp, templateId } = await setup(app);
    await callOk<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp));
    const res = await call<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp));
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details.channelId).toContain(templateId);
    expect(errorOf(res).details.channelId).toContain(inApp);
    expect(errorOf(res).devMessage).toMatch(/PUT \/api\/template-channels/);
  });

  it("answers 404 for another app's template and channel", async () => {
    const app = makeTestApp();
    const { inApp, templateId } = await setup(app, 'app-a');
    await setup(app, 'app-b');
    const res = await call<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp), {
      appId: 'app-b',
    });
    expectApiError(res, 404, 'ERR_NOT_FOUND');
  });
});

describe('GET /api/template-channels?templateId=', () => {
  it('lists the rows of a template as a bare array with X-Total-Count', async () => {
    const app = makeTestApp();
    const { inApp, push, templateId } = await setup(app);
    await callOk<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp));
    await callOk<TemplateChannel>(
      app,
      'POST',
      '/api/template-channels',
      row(templateId, push, 'push', { title: 'T', body: 'B' }),
    );
    const res = await call<TemplateChannel[]>(app, 'GET', `/api/template-channels?templateId=${templateId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.body.map((r: { channelId: string }) => r.channelId)).toEqual([inApp, push]);
    const bySlug = await call<TemplateChannel[]>(app, 'GET', '/api/template-channels?templateId=order-update');
    expect(bySlug.body).toEqual(res.body);
  });

  it('answers an empty list for a template without rows', async () => {
    const app = makeTestApp();
    const { templateId } = await setup(app);
    const res = await call<TemplateChannel[]>(app, 'GET', `/api/template-channels?templateId=${templateId}`);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total-count')).toBe('0');
  });

  it.each(['', '?templateId=', '?templateId=&page=1'])(
    'answers 400 naming templateId when it is missing or empty (%s)',
    async (query) => {
      const app = makeTestApp();
      const res = await call<TemplateChannel[]>(app, 'GET', `/api/template-channels${query}`);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(errorOf(res).details).toEqual({ templateId: expect.stringMatching(/required/) });
    },
  );

  it("answers 404 for an unknown template and for another app's", async () => {
    const app = makeTestApp();
    const { templateId } = await setup(app, 'app-a');
    expectApiError(
      await call<TemplateChannel[]>(app, 'GET', '/api/template-channels?templateId=nope'),
      404,
      'ERR_NOT_FOUND',
    );
    const other = await call<TemplateChannel[]>(
      app,
      'GET',
      `/api/template-channels?templateId=${templateId}`,
      undefined,
      {
        appId: 'app-b',
      },
    );
    expectApiError(other, 404, 'ERR_NOT_FOUND');
  });
});

describe('GET and PUT /api/template-channels/{templateId}/{channelId}', () => {
  it('gets one row; PUT replaces its content and moves updatedAt only', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const { inApp, templateId } = await setup(app);
    await callOk<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp));
    const path = `/api/template-channels/${templateId}/${inApp}`;
    expect((await call(app, 'GET', path)).body).toMatchObject({ content: CONTENT });
    clock.advance(60_000);
    const res = await call(app, 'PUT', path, { content: { title: 'New' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      templateId,
      channelId: inApp,
      channelType: 'in_app',
      content: { title: 'New' },
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:01:00.000Z',
    });
    expect((await call(app, 'GET', path)).body).toEqual(res.body);
    expect((await call<TemplateChannel>(app, 'GET', `/api/template-channels/order-update/in-app-alerts`)).body).toEqual(
      res.body,
    );
  });

  it('answers 400 naming content when PUT has none or a non-object', async () => {
    const app = makeTestApp();
    const { inApp, templateId } = await setup(app);
    await callOk<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp));
    const path = `/api/template-channels/${templateId}/${inApp}`;
    for (const body of [{}, { content: 'text' }, { content: null }]) {
      const res = await call(app, 'PUT', path, body);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(Object.keys(errorOf(res).details)).toEqual(['content']);
    }
  });

  it('answers 404 for a pair without a row, an unknown template or channel, and for GET and PUT alike', async () => {
    const app = makeTestApp();
    const { inApp, push, templateId } = await setup(app);
    await callOk<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp));
    for (const path of [`${templateId}/${push}`, `nope/${inApp}`, `${templateId}/nope`]) {
      expectApiError(await call<TemplateChannel>(app, 'GET', `/api/template-channels/${path}`), 404, 'ERR_NOT_FOUND');
      const put = await call<TemplateChannel>(app, 'PUT', `/api/template-channels/${path}`, {
        content: { title: 'x' },
      });
      expectApiError(put, 404, 'ERR_NOT_FOUND');
    }
  });

  it("answers 404 for another app's row", async () => {
    const app = makeTestApp();
    const { inApp, templateId } = await setup(app, 'app-a');
    await callOk<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp), { appId: 'app-a' });
    const path = `/api/template-channels/${templateId}/${inApp}`;
    expectApiError(await call(app, 'GET', path, undefined, { appId: 'app-b' }), 404, 'ERR_NOT_FOUND');
    const put = await call(app, 'PUT', path, { content: { title: 'x' } }, { appId: 'app-b' });
    expectApiError(put, 404, 'ERR_NOT_FOUND');
    expect((await callOk<TemplateChannel>(app, 'GET', path, undefined, { appId: 'app-a' })).content).toEqual(CONTENT);
  });

  it('answers under the production prefix too, and 405 for DELETE', async () => {
    const app = makeTestApp();
    const { inApp, templateId } = await setup(app);
    const res = await call<TemplateChannel>(
      app,
      'POST',
      '/v3/business-messaging/api/template-channels',
      row(templateId, inApp),
    );
    expect(res.status).toBe(200);
    const del = await call(app, 'DELETE', `/api/template-channels/${templateId}/${inApp}`);
    expect(del.status).toBe(405);
  });
});

describe('deleting a template deletes its rows', () => {
  it('a template created again with the same slug starts without rows', async () => {
    const app = makeTestApp();
    const { inApp, push, templateId } = await setup(app);
    await callOk<TemplateChannel>(app, 'POST', '/api/template-channels', row(templateId, inApp));
    expect((await call(app, 'DELETE', `/api/templates/${templateId}`)).body).toEqual({ success: true });
    expectApiError(
      await call<TemplateChannel>(app, 'GET', `/api/template-channels/${templateId}/${inApp}`),
      404,
      'ERR_NOT_FOUND',
    );
    const again = await call<TemplateView>(app, 'POST', '/api/templates', {
      name: 'Order Update',
      channelIds: [inApp, push],
    });
    const list = await call<TemplateChannel[]>(app, 'GET', `/api/template-channels?templateId=${again.body.id}`);
    expect(list.body).toEqual([]);
    expect(app.emulator.store.listTemplateChannels('app-test', templateId)).toEqual([]);
  });
});
