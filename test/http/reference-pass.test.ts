/**
 * The choices docs/fidelity.md lists under "Where the reference leaves room", each as the
 * emulator makes it.
 */
import { describe, expect, it } from 'vitest';
import type { Campaign, Channel, DeliveryPage, TemplateView } from '../helpers/api-types.js';
import { call, callOk, expectApiError, makeTestApp, sendOk } from '../helpers/app.js';
import { alertsChannel } from '../helpers/channels.js';

describe('where the reference leaves room', () => {
  it('records every delivery of a batch send before answering', async () => {
    const app = makeTestApp();
    const sent = await sendOk(app, { template: { key: 'plain' }, targets: ['a', 'b', 'c'], mode: 'batch' });
    const page = await callOk<DeliveryPage>(app, 'GET', `/__inspect/deliveries?notificationId=${sent.notificationId}`);
    expect(page.total).toBe(3);
  });

  it('answers a created campaign with the fields list and get show', async () => {
    const app = makeTestApp();
    const body = { name: 'c', templateId: 'plain', deliveryMode: 'batch' };
    const created = await callOk<Campaign>(app, 'POST', '/api/campaigns', body);
    expect(created).toMatchObject({ status: 'draft', scheduledAt: null, recipientCount: 0 });
  });

  it('answers a template with the documented fields and its extensions beside them', async () => {
    const app = makeTestApp();
    const channelId = await alertsChannel(app);
    const created = await callOk<TemplateView>(app, 'POST', '/api/templates', { name: 'T', channelIds: [channelId] });
    for (const field of ['id', 'appId', 'name', 'templateId', 'status', 'category', 'channelIds', 'variableSchema'])
      expect(created, field).toHaveProperty(field);
    expect(created).toMatchObject({ key: 't', channels: ['in_app'], availability: null, sequence: null });
  });

  it('ignores a body field the API does not take', async () => {
    const app = makeTestApp();
    const range = { from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z', granularity: 'daily' };
    expect((await call(app, 'POST', '/api/analytics/rollup', range)).status).toBe(200);
    const channel = await call<Channel>(app, 'POST', '/api/channels', {
      name: 'Extra',
      type: 'in_app',
      templateType: 'ui',
      colour: 'blue',
    });
    expect(channel.status).toBe(200);
    expect(channel.body).not.toHaveProperty('colour');
  });

  it('has no DELETE for channels, template-channel rows or campaigns: 405 naming the methods there are', async () => {
    const app = makeTestApp();
    const channelId = await alertsChannel(app);
    const template = await callOk<TemplateView>(app, 'POST', '/api/templates', { name: 'T', channelIds: [channelId] });
    const campaign = await callOk<Campaign>(app, 'POST', '/api/campaigns', {
      name: 'c',
      templateId: 'plain',
      deliveryMode: 'batch',
    });
    for (const path of [
      `/api/channels/${channelId}`,
      `/api/template-channels/${template.id}/${channelId}`,
      `/api/campaigns/${campaign.id}`,
    ]) {
      const res = await call(app, 'DELETE', path);
      expectApiError(res, 405, 'ERR_BAD_REQUEST');
      expect(res.headers.get('allow'), path).toMatch(/GET.*PUT|PUT.*GET/);
    }
  });
});
