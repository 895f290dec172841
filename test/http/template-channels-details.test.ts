/**
 * Template-channel rows in detail: the words of each refusal (which field names the missing
 * template or channel), and a derived row giving way to the stored row of the same channel.
 */
import { describe, expect, it } from 'vitest';
import { call, callOk, expectApiError, makeTestApp } from '../helpers/app.js';
import type { Channel, TemplateChannel, TemplateView } from '../helpers/api-types.js';
import type { EmulatorApp } from '../../src/index.js';

/** An in-app and a push channel, and a template linked to both with its own in_app content. */
async function setup(app: EmulatorApp) {
  const inApp = await callOk<Channel>(app, 'POST', '/api/channels', {
    name: 'Inbox',
    type: 'in_app',
    templateType: 'ui',
  });
  const push = await callOk<Channel>(app, 'POST', '/api/channels', {
    name: 'Phone',
    type: 'push',
    templateType: 'data',
  });
  const template = await callOk<TemplateView>(app, 'POST', '/api/templates', {
    name: 'Order Update',
    channelIds: [inApp.id, push.id],
    content: { in_app: { title: 'Derived' } },
  });
  return { inApp, push, template };
}

const NO_TEMPLATE = {
  message: 'The template was not found.',
  devMessage: 'No template with id or slug "nope" exists for this app (templateId).',
  details: { templateId: 'no template "nope" in this app' },
};
const NO_CHANNEL = {
  message: 'The channel was not found.',
  devMessage: 'No channel with id or key "nope" exists for this app (channelId).',
  details: { channelId: 'no channel "nope" in this app' },
};

describe('template-channel refusals', () => {
  it('name templateId or channelId for an unknown template or channel, on every route', async () => {
    const app = makeTestApp();
    const { inApp, template } = await setup(app);
    const post = (templateId: string, channelId: string) =>
      call(app, 'POST', '/api/template-channels', { templateId, channelId, channelType: 'in_app', content: {} });
    expect(expectApiError(await post('nope', inApp.id), 404, 'ERR_NOT_FOUND')).toMatchObject(NO_TEMPLATE);
    expect(expectApiError(await post(template.id, 'nope'), 404, 'ERR_NOT_FOUND')).toMatchObject(NO_CHANNEL);
    const list = await call(app, 'GET', '/api/template-channels?templateId=nope');
    expect(expectApiError(list, 404, 'ERR_NOT_FOUND')).toMatchObject(NO_TEMPLATE);
    for (const method of ['GET', 'PUT'] as const) {
      const body = method === 'PUT' ? { content: { title: 'x' } } : undefined;
      const noTemplate = await call(app, method, `/api/template-channels/nope/${inApp.id}`, body);
      expect(expectApiError(noTemplate, 404, 'ERR_NOT_FOUND')).toMatchObject(NO_TEMPLATE);
      const noChannel = await call(app, method, `/api/template-channels/${template.id}/nope`, body);
      expect(expectApiError(noChannel, 404, 'ERR_NOT_FOUND')).toMatchObject(NO_CHANNEL);
    }
  });

  it('say which type the channel is, and how to link a channel that is not linked', async () => {
    const app = makeTestApp();
    const { push, template } = await setup(app);
    const wrongType = await call(app, 'POST', '/api/template-channels', {
      templateId: template.id,
      channelId: push.id,
      channelType: 'in_app',
      content: {},
    });
    expect(expectApiError(wrongType, 400, 'ERR_BAD_REQUEST').devMessage).toBe(
      `channelType is "in_app" but channel "phone" (${push.id}) is of type "push".`,
    );
    const other = await callOk<Channel>(app, 'POST', '/api/channels', {
      name: 'Other',
      type: 'in_app',
      templateType: 'ui',
    });
    const unlinked = await call(app, 'POST', '/api/template-channels', {
      templateId: template.id,
      channelId: other.id,
      channelType: 'in_app',
      content: {},
    });
    expect(expectApiError(unlinked, 400, 'ERR_BAD_REQUEST').devMessage).toBe(
      `Channel "other" (${other.id}) is not linked to template "order-update"; add it to the template's ` +
        `channelIds first (PUT /api/templates/${template.id}).`,
    );
  });
});

describe('GET /api/template-channels?templateId=', () => {
  it("lists the row derived from the template's content until a row is stored for that channel", async () => {
    const app = makeTestApp();
    const { inApp, template } = await setup(app);
    const list = () => callOk<TemplateChannel[]>(app, 'GET', `/api/template-channels?templateId=${template.id}`);
    expect(await list()).toMatchObject([{ channelId: inApp.id, content: { title: 'Derived' } }]);
    await callOk<TemplateChannel>(app, 'POST', '/api/template-channels', {
      templateId: template.id,
      channelId: inApp.id,
      channelType: 'in_app',
      content: { title: 'Stored' },
    });
    expect(await list()).toMatchObject([{ channelId: inApp.id, content: { title: 'Stored' } }]);
    expect(await list()).toHaveLength(1);
  });
});
