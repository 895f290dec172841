import type { Campaign, Recipient } from '../../src/index.js';
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, manualClock, callOk, errorOf, call } from '../helpers/app.js';
import { createCampaign, ORDER_TEMPLATE_ID, upload } from '../helpers/campaigns.js';
import { alertsChannel } from '../helpers/channels.js';

describe('POST /api/campaigns', () => {
  it('answers 200 with the full draft record, storing the template id when given its key', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const res = await call<Campaign>(app, 'POST', '/api/campaigns', {
      name: 'Black Friday',
      templateId: 'order-confirmation',
      deliveryMode: 'batch',
      tag: 'marketing',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      appId: 'app-test',
      name: 'Black Friday',
      templateId: ORDER_TEMPLATE_ID,
      status: 'draft',
      deliveryMode: 'batch',
      tag: 'marketing',
      scheduledAt: null,
      recipientCount: 0,
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
  });

  it('accepts the template id and a missing tag (null)', async () => {
    const app = makeTestApp();
    const campaign = await createCampaign(app, {
      templateId: ORDER_TEMPLATE_ID,
      deliveryMode: 'realtime',
      tag: undefined,
    });
    expect(campaign).toMatchObject({ templateId: ORDER_TEMPLATE_ID, deliveryMode: 'realtime', tag: null });
  });

  it('answers 400 ERR_BAD_REQUEST for a deliveryMode other than batch/realtime', async () => {
    const res = await call(makeTestApp(), 'POST', '/api/campaigns', {
      name: 'x',
      templateId: 'plain',
      deliveryMode: 'bulk',
    });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('deliveryMode');
  });

  it('answers 400 ERR_BAD_REQUEST naming every missing field', async () => {
    const res = await call(makeTestApp(), 'POST', '/api/campaigns', {});
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(res).details).sort()).toEqual(['deliveryMode', 'name', 'templateId']);
  });

  it('answers 404 ERR_NOT_FOUND for an unknown template', async () => {
    expectApiError(
      await call(makeTestApp(), 'POST', '/api/campaigns', { name: 'x', templateId: 'nope', deliveryMode: 'batch' }),
      404,
      'ERR_NOT_FOUND',
    );
  });

  it('answers 400 ERR_TEMPLATE_NOT_APPROVED for a draft or archived template', async () => {
    const app = makeTestApp();
    for (const templateId of ['draft-one', 'archived-one']) {
      expectApiError(
        await call<Campaign>(app, 'POST', '/api/campaigns', { name: 'x', templateId, deliveryMode: 'batch' }),
        400,
        'ERR_TEMPLATE_NOT_APPROVED',
      );
    }
  });

  it('answers 401 without credentials', async () => {
    expectApiError(
      await call(
        makeTestApp(),
        'POST',
        '/api/campaigns',
        { name: 'x', templateId: 'plain', deliveryMode: 'batch' },
        { appId: '' },
      ),
      401,
      'ERR_UNAUTHORIZED',
    );
  });

  it('is served under /v3/business-messaging/api too', async () => {
    const res = await call(makeTestApp(), 'POST', '/v3/business-messaging/api/campaigns', {
      name: 'x',
      templateId: 'plain',
      deliveryMode: 'batch',
    });
    expect(res.status).toBe(200);
  });
});

describe('GET /api/campaigns and GET /api/campaigns/{id}', () => {
  it("lists the app's campaigns as a bare array, enriched, with X-Total-Count", async () => {
    const app = makeTestApp();
    const a = await createCampaign(app, { name: 'A' });
    await createCampaign(app, { name: 'B', templateId: 'plain' });
    await createCampaign(app, { name: 'other app' }, { appId: 'app-other' });
    const res = await call<Campaign[]>(app, 'GET', '/api/campaigns');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.body.map((c) => c.name)).toEqual(['A', 'B']);
    expect(res.body[0]).toMatchObject({
      id: a.id,
      templateName: 'Order Confirmation',
      channelTypes: ['in_app', 'push'],
      recipientCount: 0,
      scheduledAt: null,
    });
  });

  it('pages with page/limit and filters by status', async () => {
    const app = makeTestApp();
    for (const name of ['A', 'B', 'C']) await createCampaign(app, { name });
    const page2 = await call<Campaign[]>(app, 'GET', '/api/campaigns?page=2&limit=2');
    expect(page2.body.map((c) => c.name)).toEqual(['C']);
    expect(page2.headers.get('x-total-count')).toBe('3');
    expect((await call<Campaign[]>(app, 'GET', '/api/campaigns?status=sent')).body).toEqual([]);
    expectApiError(await call<Campaign[]>(app, 'GET', '/api/campaigns?status=nope'), 400, 'ERR_BAD_REQUEST');
    expectApiError(await call<Campaign[]>(app, 'GET', '/api/campaigns?page=0'), 400, 'ERR_BAD_REQUEST');
  });

  it('gets one campaign enriched; another app gets 404', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const res = await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`);
    expect(res.body).toMatchObject({
      id: c.id,
      status: 'draft',
      templateName: 'Order Confirmation',
      channelTypes: ['in_app', 'push'],
    });
    const otherApp = await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`, undefined, { appId: 'app-other' });
    expectApiError(otherApp, 404, 'ERR_NOT_FOUND');
    // Another app's campaign is answered as one that does not exist, naming what was looked for.
    expect(errorOf(otherApp)).toMatchObject({
      message: 'The campaign was not found.',
      devMessage: `No campaign with id "${c.id}" exists for this app.`,
    });
    expectApiError(await call<Campaign>(app, 'GET', '/api/campaigns/ffffffffffffffffffffffff'), 404, 'ERR_NOT_FOUND');
  });
});

describe('PUT /api/campaigns/{id}', () => {
  it('updates name, tag and deliveryMode of a draft', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const res = await call<Campaign>(app, 'PUT', `/api/campaigns/${c.id}`, {
      name: 'Renamed',
      tag: 'promo',
      deliveryMode: 'realtime',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: c.id,
      name: 'Renamed',
      tag: 'promo',
      deliveryMode: 'realtime',
      status: 'draft',
    });
  });

  it('answers 400 for a bad deliveryMode and 404 for another app', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    expectApiError(
      await call<Campaign>(app, 'PUT', `/api/campaigns/${c.id}`, { deliveryMode: 'x' }),
      400,
      'ERR_BAD_REQUEST',
    );
    expectApiError(
      await call<Campaign>(app, 'PUT', `/api/campaigns/${c.id}`, { name: 'x' }, { appId: 'app-other' }),
      404,
      'ERR_NOT_FOUND',
    );
  });

  it('answers 400 once the campaign is no longer a draft', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const c = await createCampaign(app);
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, { scheduledAt: '2030-01-02T00:00:00Z' });
    const res = await call<Campaign>(app, 'PUT', `/api/campaigns/${c.id}`, { name: 'late' });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toEqual({ status: 'is "scheduled", must be "draft"' });
    expect(errorOf(res).devMessage).toBe(
      `Campaign ${c.id} is "scheduled"; an update needs a campaign in "draft" status.`,
    );
  });

  it('changes only the fields given, and stamps updatedAt', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const c = await createCampaign(app, { tag: 'spring' });
    clock.advance(60_000);
    const res = await callOk<Campaign>(app, 'PUT', `/api/campaigns/${c.id}`, { tag: 'summer' });
    expect(res).toMatchObject({ name: c.name, tag: 'summer', deliveryMode: c.deliveryMode });
    expect(res.updatedAt).toBe('2030-01-01T00:01:00.000Z');
    expect(await callOk<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).toMatchObject({
      name: c.name,
      tag: 'summer',
      updatedAt: '2030-01-01T00:01:00.000Z',
    });
  });
});

describe('POST /api/campaigns/{id}/recipients', () => {
  it('adds user IDs, skipping duplicates in the call and already on the campaign', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    expect(
      (
        await call<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
          userIds: ['u1', 'u2', 'u2'],
        })
      ).body,
    ).toEqual({ added: 2, total: 2 });
    expect(
      (
        await call<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
          userIds: ['u2', 'u3'],
        })
      ).body,
    ).toEqual({
      added: 1,
      total: 3,
    });
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body.recipientCount).toBe(3);
  });

  it('answers 400 for an empty list, an empty string, more than 10,000 IDs, or a missing body field', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const path = `/api/campaigns/${c.id}/recipients`;
    for (const body of [
      { userIds: [] },
      { userIds: [''] },
      { userIds: [1] },
      {},
      { userIds: Array.from({ length: 10_001 }, (_, i) => `u${i}`) },
    ]) {
      const res = await call(app, 'POST', path, body);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(Object.keys(errorOf(res).details)[0]).toMatch(/^userIds/);
    }
    expect(
      (await call(app, 'POST', path, { userIds: Array.from({ length: 10_000 }, (_, i) => `u${i}`) })).body,
    ).toEqual({ added: 10_000, total: 10_000 });
  });

  it('answers 404 for another app and 400 for a non-draft campaign', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    expectApiError(
      await call<{ added: number; total: number }>(
        app,
        'POST',
        `/api/campaigns/${c.id}/recipients`,
        { userIds: ['u1'] },
        { appId: 'app-other' },
      ),
      404,
      'ERR_NOT_FOUND',
    );
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {});
    const refused = expectApiError(
      await call<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
        userIds: ['u2'],
      }),
      400,
      'ERR_BAD_REQUEST',
    );
    expect(refused.devMessage).toMatch(/; adding recipients needs a campaign in "draft" status\.$/);
  });
});

describe('GET /api/campaigns/{id}/recipients', () => {
  it('pages recipients as a bare array with X-Total-Count and filters by status', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1', 'u2', 'u3'],
    });
    const res = await call<Recipient[]>(app, 'GET', `/api/campaigns/${c.id}/recipients?page=2&limit=2`);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.body).toEqual([
      expect.objectContaining({ userId: 'u3', status: 'pending', campaignId: c.id, variables: {}, deliveryId: null }),
    ]);
    expect((await call<Recipient[]>(app, 'GET', `/api/campaigns/${c.id}/recipients?status=sent`)).body).toEqual([]);
    expectApiError(
      await call<Recipient[]>(app, 'GET', `/api/campaigns/${c.id}/recipients?status=done`),
      400,
      'ERR_BAD_REQUEST',
    );
    expectApiError(
      await call<Recipient[]>(app, 'GET', `/api/campaigns/${c.id}/recipients`, undefined, { appId: 'app-other' }),
      404,
      'ERR_NOT_FOUND',
    );
  });
});

describe('a campaign whose template was deleted after it was made', () => {
  it('takes recipients by id, but refuses an upload and a send with 404 naming the template', async () => {
    const app = makeTestApp();
    const template = await callOk<{ id: string }>(app, 'POST', '/api/templates', {
      name: 'Short-lived',
      channelIds: [await alertsChannel(app)],
      variableSchema: { name: { type: 'string', required: false } },
      content: { in_app: { title: 'Hi {{name}}' } },
    });
    await callOk(app, 'PUT', `/api/templates/${template.id}`, { status: 'approved' });
    const campaign = await createCampaign(app, { templateId: template.id });
    await callOk(app, 'POST', `/api/campaigns/${campaign.id}/recipients`, { userIds: ['u1'] });
    await callOk(app, 'DELETE', `/api/templates/${template.id}`);

    const uploaded = await upload(app, 'user_id,name\nu2,Ann\n', campaign.id);
    expect(expectApiError(uploaded, 404, 'ERR_NOT_FOUND').details).toEqual({
      templateId: `template ${template.id} no longer exists`,
    });
    const sent = await call(app, 'POST', `/api/campaigns/${campaign.id}/send`, {});
    expect(expectApiError(sent, 404, 'ERR_NOT_FOUND').devMessage).toContain(template.id);
    const after = await callOk<Campaign>(app, 'GET', `/api/campaigns/${campaign.id}`);
    expect(after).toMatchObject({ status: 'draft', recipientCount: 1, templateName: null, channelTypes: [] });
  });
});
