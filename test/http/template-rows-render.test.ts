/**
 * Sends render each channel from the template's rows: the app's rows (API) win over the
 * fixture file's rows, which win over the template's `content`; a changed row applies to
 * later sends only.
 */
import { describe, expect, it } from 'vitest';
import { CTA, makeTestApp, TEST_TEMPLATES, call, send, callOk } from '../helpers/app.js';
import type {
  Campaign,
  Channel,
  DeliveryPage,
  TemplateChannel,
  TemplateView,
  UploadResult,
} from '../helpers/api-types.js';
import { waitForCampaignStatus } from '../helpers/campaigns.js';
import type { EmulatorApp } from '../../src/index.js';

const ORDER_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const IN_APP = { name: 'In-App Alerts', type: 'in_app', templateType: 'ui' };
const PUSH = { name: 'Mobile Push', type: 'push', templateType: 'data' };
const VARS = { customerName: 'Ada', cta: CTA };

async function channel(app: EmulatorApp, body: object, appId = 'app-test'): Promise<string> {
  const res = await call<Channel>(app, 'POST', '/api/channels', body, { appId });
  expect(res.status).toBe(200);
  return res.body.id;
}

const sendOrder = (app: EmulatorApp, appId = 'app-test', targets = ['user-1']) =>
  send(
    app,
    {
      template: { key: 'order-confirmation', variables: VARS },
      targets,
      mode: targets.length > 1 ? 'batch' : 'realtime',
    },
    { appId },
  );

async function lastRendered(app: EmulatorApp, appId = 'app-test') {
  const res = await call<DeliveryPage>(app, 'GET', `/__inspect/deliveries?appId=${appId}`);
  // Rendered content is free-form per template; these tests read in_app and push titles and bodies.
  return res.body.items.map((d) => d.rendered as Record<string, Record<string, unknown>>);
}

describe('fixture content read as rows', () => {
  it("lists the fixture template's content as one row per linked channel of the app", async () => {
    const app = makeTestApp();
    const inApp = await channel(app, IN_APP);
    const push = await channel(app, PUSH);
    const res = await call<TemplateChannel[]>(app, 'GET', `/api/template-channels?templateId=${ORDER_ID}`);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.body).toEqual([
      expect.objectContaining({ channelId: inApp, channelType: 'in_app', content: TEST_TEMPLATES[0]!.content!.in_app }),
      expect.objectContaining({ channelId: push, channelType: 'push', content: TEST_TEMPLATES[0]!.content!.push }),
    ]);
    const one = await call<TemplateChannel>(app, 'GET', `/api/template-channels/order-confirmation/${push}`);
    expect(one.body.content).toEqual(TEST_TEMPLATES[0]!.content!.push);
  });

  it("POST on a pair whose row comes from the template's content stores the app's own row (no duplicate)", async () => {
    const app = makeTestApp();
    const inApp = await channel(app, IN_APP);
    const body = { templateId: ORDER_ID, channelId: inApp, channelType: 'in_app', content: { title: 'Own' } };
    expect((await call<TemplateChannel>(app, 'POST', '/api/template-channels', body)).status).toBe(200);
    expect(
      (await call<TemplateChannel>(app, 'GET', `/api/template-channels/${ORDER_ID}/${inApp}`)).body.content,
    ).toEqual({
      title: 'Own',
    });
    expect((await call<TemplateChannel>(app, 'POST', '/api/template-channels', body)).status).toBe(400);
  });

  it('lists nothing while the app has no channels (a row needs a channel id)', async () => {
    const app = makeTestApp();
    const res = await call<TemplateChannel[]>(app, 'GET', '/api/template-channels?templateId=order-confirmation');
    expect(res.body).toEqual([]);
  });
});

describe('a send renders from rows', () => {
  it("uses the app's row for that channel type and the template's content for the others", async () => {
    const app = makeTestApp();
    const inApp = await channel(app, IN_APP);
    await channel(app, PUSH);
    const created = await call<TemplateChannel>(app, 'POST', '/api/template-channels', {
      templateId: ORDER_ID,
      channelId: inApp,
      channelType: 'in_app',
      content: { title: 'Row for {{customerName}}', url: '{{cta}}' },
    });
    expect(created.status).toBe(200);
    expect((await sendOrder(app)).status).toBe(200);
    const [rendered] = (await lastRendered(app)) as [Record<string, Record<string, unknown>>];
    expect(rendered.in_app).toEqual({ title: 'Row for Ada', url: CTA.data });
    expect(rendered.push).toEqual({ title: 'Order for Ada', body: `Open ${CTA.data} {{unknownVar}}` });
  });

  it('a PUT applies to later sends only; earlier deliveries keep what they rendered', async () => {
    const app = makeTestApp();
    const inApp = await channel(app, IN_APP);
    const path = `/api/template-channels/${ORDER_ID}/${inApp}`;
    // PUT on the derived row (from the fixture content) stores the app's own row.
    expect((await call(app, 'PUT', path, { content: { title: 'First {{customerName}}' } })).status).toBe(200);
    await sendOrder(app);
    await sendOrder(app, 'app-test', ['user-2', 'user-3']);
    await callOk(app, 'PUT', path, { content: { title: 'Second {{customerName}}' } });
    await sendOrder(app);
    const titles = (await lastRendered(app)).map((r) => r.in_app!.title);
    expect(titles).toEqual(['First Ada', 'First Ada', 'First Ada', 'Second Ada']);
  });

  it("an app's row does not change what another app renders from the same shared template", async () => {
    const app = makeTestApp();
    const a = await channel(app, IN_APP, 'app-a');
    await channel(app, IN_APP, 'app-b');
    await call(
      app,
      'PUT',
      `/api/template-channels/${ORDER_ID}/${a}`,
      { content: { title: 'A only' } },
      { appId: 'app-a' },
    );
    await sendOrder(app, 'app-a');
    await sendOrder(app, 'app-b');
    expect((await lastRendered(app, 'app-a'))[0]!.in_app).toEqual({ title: 'A only' });
    expect((await lastRendered(app, 'app-b'))[0]!.in_app!.title).toBe('Hi Ada');
  });

  it('with two channels of one type, an enabled channel with a row wins, in channel order', async () => {
    const app = makeTestApp();
    const first = await channel(app, { ...IN_APP, name: 'First' });
    const second = await channel(app, { ...IN_APP, name: 'Second' });
    for (const [id, title] of [
      [first, 'from first'],
      [second, 'from second'],
    ]) {
      await callOk<TemplateChannel>(app, 'PUT', `/api/template-channels/${ORDER_ID}/${id}`, { content: { title } });
    }
    await sendOrder(app);
    await callOk<Channel>(app, 'PUT', `/api/channels/${first}`, { enabled: false });
    await sendOrder(app);
    expect((await lastRendered(app)).map((r) => r.in_app!.title)).toEqual(['from first', 'from second']);
  });

  it('a campaign renders from the rows as they are when it starts', async () => {
    const app = makeTestApp();
    const inApp = await channel(app, IN_APP);
    await callOk<TemplateChannel>(app, 'PUT', `/api/template-channels/${ORDER_ID}/${inApp}`, {
      content: { title: 'Campaign {{customerName}}' },
    });
    const campaign = (
      await call<Campaign>(app, 'POST', '/api/campaigns', { name: 'C', templateId: ORDER_ID, deliveryMode: 'batch' })
    ).body;
    const form = new FormData();
    form.append('file', new Blob([`user_id,customerName,cta\nu1,Ada,"{""type"":""web"",""data"":""x""}"\n`]), 'r.csv');
    form.append('campaignId', campaign.id);
    expect((await call<UploadResult>(app, 'POST', '/api/campaigns/upload', undefined, { raw: form })).status).toBe(200);
    await callOk(app, 'POST', `/api/campaigns/${campaign.id}/send`, {});
    await waitForCampaignStatus(app, campaign.id, 'sent');
    const deliveries = (await call<DeliveryPage>(app, 'GET', `/__inspect/deliveries?campaignId=${campaign.id}`)).body
      .items;
    expect(deliveries[0]!.rendered.in_app).toEqual({ title: 'Campaign Ada' });
  });

  it('a runtime template renders its rows; deleting it deletes them', async () => {
    const app = makeTestApp();
    const inApp = await channel(app, IN_APP);
    const t = await call<TemplateView>(app, 'POST', '/api/templates', {
      name: 'Shipping',
      channelIds: [inApp],
      variableSchema: { who: { type: 'string' } },
    });
    await callOk<TemplateChannel>(app, 'POST', '/api/template-channels', {
      templateId: t.body.id,
      channelId: inApp,
      channelType: 'in_app',
      content: { title: 'Shipped, {{who}}' },
    });
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${t.body.id}`, { status: 'approved' });
    const res = await send(app, {
      template: { key: 'shipping', variables: { who: 'Bo' } },
      targets: ['u'],
      mode: 'realtime',
    });
    expect(res.status).toBe(200);
    expect((await lastRendered(app))[0]).toEqual({ in_app: { title: 'Shipped, Bo' } });
  });
});
