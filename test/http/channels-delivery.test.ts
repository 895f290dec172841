import type { Channel } from '../helpers/api-types.js';
import type { Delivery, Campaign } from '../../src/index.js';
import { describe, expect, it } from 'vitest';
import { BANNER, CTA, makeTestApp, callOk, sendOk, type List, call, send } from '../helpers/app.js';

const ORDER = { key: 'order-confirmation', variables: { customerName: 'Ada', banner: BANNER, cta: CTA } };

async function channel(app: ReturnType<typeof makeTestApp>, name: string, type: string) {
  const res = await call<Channel>(app, 'POST', '/api/channels', { name, type, templateType: 'ui' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

describe('disabled channels are skipped at delivery', () => {
  it('delivers through every template channel when the app has no channel records', async () => {
    const app = makeTestApp();
    const res = await send(app, { template: ORDER, targets: ['u1'], mode: 'realtime' });
    expect(res.body.channels).toEqual(['in_app', 'push']);
  });

  it('keeps a template channel type the app has no channel record of, beside one it has', async () => {
    const app = makeTestApp();
    await channel(app, 'In-App', 'in_app');
    const res = await send(app, { template: ORDER, targets: ['u1'], mode: 'realtime' });
    expect(res.body.channels).toEqual(['in_app', 'push']);
  });

  it('leaves out a channel type whose only channel is disabled, in the answer and the delivery', async () => {
    const app = makeTestApp();
    await channel(app, 'In-App', 'in_app');
    const push = await channel(app, 'Mobile Push', 'push');
    expect((await call<Channel>(app, 'PUT', `/api/channels/${push}`, { enabled: false })).status).toBe(200);

    const res = await send(app, { template: ORDER, targets: ['u1'], mode: 'realtime' });
    expect(res.body.channels).toEqual(['in_app']);
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?userId=u1');
    expect(body.items[0]).toMatchObject({ channels: ['in_app'], status: 'sent' });
  });

  it('records a failed delivery when every channel of the template is disabled, campaigns included', async () => {
    const app = makeTestApp();
    const inApp = await channel(app, 'In-App', 'in_app');
    const push = await channel(app, 'Mobile Push', 'push');
    for (const id of [inApp, push]) await call<Channel>(app, 'PUT', `/api/channels/${id}`, { enabled: false });

    await sendOk(app, { template: ORDER, targets: ['u1'], mode: 'realtime' });
    const one = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?userId=u1');
    expect(one.body.items[0]).toMatchObject({
      channels: [],
      status: 'failed',
      failureReason: 'no channel linked to the template is enabled in this app',
    });

    const created = await call<Campaign>(app, 'POST', '/api/campaigns', {
      name: 'c',
      templateId: 'plain',
      deliveryMode: 'batch',
    });
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${created.body.id}/recipients`, {
      userIds: ['u2'],
    });
    await callOk<Campaign>(app, 'POST', `/api/campaigns/${created.body.id}/send`, {});
    const waited = await call<List<Delivery>>(
      app,
      'GET',
      `/__inspect/deliveries?campaignId=${created.body.id}&waitFor=1&timeoutMs=5000`,
    );
    expect(waited.body.items[0]).toMatchObject({ channels: [], status: 'failed' });
  });
});

describe('a send goes out on the template’s own linked channels', () => {
  /** Two in_app channels; a runtime template linked to the first only, with a row for it; then that one disabled. */
  async function linkedToDisabledInbox(app: ReturnType<typeof makeTestApp>, alsoPush: boolean) {
    const linkedInbox = await channel(app, 'Linked inbox', 'in_app');
    await channel(app, 'Other inbox', 'in_app');
    const push = alsoPush ? await channel(app, 'Mobile Push', 'push') : null;
    const template = await callOk<{ id: string }>(app, 'POST', '/api/templates', {
      name: 'Linked only',
      channelIds: push ? [linkedInbox, push] : [linkedInbox],
      variableSchema: {},
    });
    for (const [id, type] of [[linkedInbox, 'in_app'], ...(push ? [[push, 'push']] : [])] as const) {
      await callOk(app, 'POST', '/api/template-channels', {
        templateId: template.id,
        channelId: id,
        channelType: type,
        content: { title: `row of ${type}` },
      });
    }
    await callOk(app, 'PUT', `/api/templates/${template.id}`, { status: 'approved' });
    await callOk(app, 'PUT', `/api/channels/${linkedInbox}`, { enabled: false });
    return template.id;
  }

  it('skips a disabled linked channel even when an unlinked channel of its type is enabled', async () => {
    const app = makeTestApp();
    await linkedToDisabledInbox(app, false);
    const res = await send(app, { template: { key: 'linked-only' }, targets: ['u1'], mode: 'realtime' });
    expect(res.status).toBe(200);
    expect(res.body.channels).toEqual([]);
    const { body } = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?userId=u1');
    expect(body.items[0]).toMatchObject({
      channels: [],
      status: 'failed',
      failureReason: 'no channel linked to the template is enabled in this app',
    });
    expect(body.items[0]!.rendered).toEqual({});
  });

  it('keeps the enabled linked types, and a campaign decides the same way', async () => {
    const app = makeTestApp();
    const templateId = await linkedToDisabledInbox(app, true);
    const res = await send(app, { template: { key: 'linked-only' }, targets: ['u1'], mode: 'realtime' });
    expect(res.body.channels).toEqual(['push']);
    const one = await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?userId=u1');
    expect(one.body.items[0]).toMatchObject({
      channels: ['push'],
      status: 'sent',
      rendered: { push: { title: 'row of push' } },
    });
    expect(one.body.items[0]!.rendered).not.toHaveProperty('in_app');

    const created = await callOk<Campaign>(app, 'POST', '/api/campaigns', {
      name: 'c',
      templateId,
      deliveryMode: 'batch',
    });
    await callOk(app, 'POST', `/api/campaigns/${created.id}/recipients`, { userIds: ['u2'] });
    await callOk(app, 'POST', `/api/campaigns/${created.id}/send`, {});
    const waited = await call<List<Delivery>>(
      app,
      'GET',
      `/__inspect/deliveries?campaignId=${created.id}&waitFor=1&timeoutMs=5000`,
    );
    expect(waited.body.items[0]).toMatchObject({ channels: ['push'], status: 'sent' });
    expect(waited.body.items[0]!.rendered).not.toHaveProperty('in_app');
  });
});
