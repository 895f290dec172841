import type { Channel, UserInsights } from '../helpers/api-types.js';
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, manualClock, callOk, sendOk, errorOf, call } from '../helpers/app.js';
import type { Campaign } from '../../src/index.js';
import { createCampaign, orderCsv, upload, waitForCampaignStatus } from '../helpers/campaigns.js';
import { event, sendOrder } from '../helpers/analytics.js';

describe('POST /api/analytics/events', () => {
  it('records an event and answers {success, eventId}', async () => {
    const app = makeTestApp();
    const notificationId = await sendOrder(app, 'user-1');
    const res = await call<{ success: boolean; eventId: string }>(
      app,
      'POST',
      '/api/analytics/events',
      event(notificationId, 'viewed'),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, eventId: expect.stringMatching(/^evt_[0-9a-f]{24}$/) });
  });

  it('is idempotent: the same eventType for the same user and campaign answers the same eventId', async () => {
    const app = makeTestApp();
    const notificationId = await sendOrder(app, 'user-1');
    const first = await call<{ success: boolean; eventId: string }>(
      app,
      'POST',
      '/api/analytics/events',
      event(notificationId, 'clicked'),
    );
    const again = await call<{ success: boolean; eventId: string }>(
      app,
      'POST',
      '/api/analytics/events',
      event(notificationId, 'clicked'),
    );
    expect(again.body).toEqual(first.body);
    const other = await call<{ success: boolean; eventId: string }>(
      app,
      'POST',
      '/api/analytics/events',
      event(notificationId, 'viewed'),
    );
    expect(other.body.eventId).not.toBe(first.body.eventId);
    expect((await call<UserInsights>(app, 'GET', '/api/analytics/users/user-1')).body.summary.clicked).toBe(1);
  });

  it('accepts a campaign id and reports campaign deliveries under it', async () => {
    const app = makeTestApp();
    const campaign = await createCampaign(app);
    expect((await upload(app, orderCsv(['user-1']), campaign.id)).status).toBe(200);
    expect((await call<Campaign>(app, 'POST', `/api/campaigns/${campaign.id}/send`, {})).status).toBe(200);
    await waitForCampaignStatus(app, campaign.id, 'sent');
    expect(
      (
        await call<{ success: boolean; eventId: string }>(
          app,
          'POST',
          '/api/analytics/events',
          event(campaign.id, 'clicked', 'push'),
        )
      ).status,
    ).toBe(200);
    const res = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-1');
    expect(res.body.summary).toEqual({ delivered: 2, viewed: 0, clicked: 1 });
    expect(res.body.notifications.every((n: { notificationId: string }) => n.notificationId === campaign.id)).toBe(
      true,
    );
  });

  it('answers 400 ERR_BAD_REQUEST with details for missing and ill-typed fields', async () => {
    const res = await call(makeTestApp(), 'POST', '/api/analytics/events', { channelType: 'fax', eventType: 'opened' });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(res).details).sort()).toEqual(['campaignId', 'channelType', 'eventType', 'userId']);
  });

  it("answers 404 ERR_NOT_FOUND for an unknown campaignId and for another app's notification", async () => {
    const app = makeTestApp();
    const notificationId = await sendOrder(app, 'user-1', 'app-a');
    expectApiError(
      await call<{ success: boolean; eventId: string }>(
        app,
        'POST',
        '/api/analytics/events',
        event('ffffffffffffffffffffffff', 'viewed'),
      ),
      404,
      'ERR_NOT_FOUND',
    );
    expectApiError(
      await call<{ success: boolean; eventId: string }>(
        app,
        'POST',
        '/api/analytics/events',
        event(notificationId, 'viewed'),
        { appId: 'app-b' },
      ),
      404,
      'ERR_NOT_FOUND',
    );
  });

  it('names what it looked for in the 404 of an unknown id', async () => {
    const res = await call(makeTestApp(), 'POST', '/api/analytics/events', event('ffffffffffffffffffffffff', 'viewed'));
    expect(expectApiError(res, 404, 'ERR_NOT_FOUND').devMessage).toMatch(
      /campaign or notification.*ffffffffffffffffffffffff/,
    );
  });
});

describe('GET /api/analytics/users/{userId}', () => {
  it('reports each notification per channel type from deliveries and recorded events', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const notificationId = await sendOrder(app, 'user-1');
    clock.advance(5000);
    await callOk<{ success: boolean; eventId: string }>(
      app,
      'POST',
      '/api/analytics/events',
      event(notificationId, 'viewed'),
    );
    await callOk<{ success: boolean; eventId: string }>(
      app,
      'POST',
      '/api/analytics/events',
      event(notificationId, 'clicked'),
    );
    const res = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-1');
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe('user-1');
    expect(res.body.summary).toEqual({ delivered: 2, viewed: 1, clicked: 1 });
    const byChannel = Object.fromEntries(
      res.body.notifications.map((n: { channelType: string }) => [n.channelType, n]),
    );
    expect(byChannel.in_app).toEqual({
      notificationId,
      templateName: 'Order Confirmation',
      channelType: 'in_app',
      delivered: true,
      viewed: true,
      clicked: true,
      deliveredAt: '2030-01-01T00:00:00.000Z',
      viewedAt: '2030-01-01T00:00:05.000Z',
      clickedAt: '2030-01-01T00:00:05.000Z',
    });
    expect(byChannel.push).toMatchObject({
      delivered: true,
      viewed: false,
      clicked: false,
      viewedAt: null,
      clickedAt: null,
    });
  });

  it('lists the newest notification first', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    await sendOk(app, { template: { key: 'plain' }, targets: ['user-1'], mode: 'realtime' });
    clock.advance(1000);
    const newer = await sendOrder(app, 'user-1');
    const res = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-1');
    expect(res.body.notifications[0]!.notificationId).toBe(newer);
    expect(res.body.notifications.at(-1)!.templateName).toBe('Plain');
  });

  it('lists an event without a delivery (not sent to the user, or dropped at the cap) under its template', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const notificationId = await sendOrder(app, 'user-1');
    const campaign = await createCampaign(app, { templateId: 'plain' });
    await callOk(app, 'POST', '/api/analytics/events', event(notificationId, 'delivered', 'in_app', 'user-9'));
    clock.advance(1000);
    await callOk(app, 'POST', '/api/analytics/events', event(campaign.id, 'viewed', 'push', 'user-9'));
    const res = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-9');
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ delivered: 1, viewed: 1, clicked: 0 });
    expect(res.body.notifications).toEqual([
      expect.objectContaining({
        notificationId: campaign.id,
        templateName: 'Plain',
        channelType: 'push',
        viewed: true,
      }),
      expect.objectContaining({
        notificationId,
        templateName: 'Order Confirmation',
        delivered: true,
        deliveredAt: '2030-01-01T00:00:00.000Z',
      }),
    ]);
  });

  it("keeps a notification's channels in the order they went out when their times are equal", async () => {
    const app = makeTestApp({ clock: manualClock() });
    await sendOrder(app, 'user-1');
    const res = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-1');
    expect(res.body.notifications.map((n) => n.channelType)).toEqual(['in_app', 'push']);
  });

  it("names an event-only row's template after its own notification, among others of other templates", async () => {
    const app = makeTestApp({ clock: manualClock() });
    await sendOrder(app, 'user-1');
    const plain = await sendOk(app, { template: { key: 'plain' }, targets: ['user-1'], mode: 'realtime' });
    await sendOrder(app, 'user-2');
    await callOk(app, 'POST', '/api/analytics/events', event(plain.notificationId, 'viewed', 'in_app', 'user-9'));
    const res = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-9');
    expect(res.body.notifications).toEqual([
      expect.objectContaining({ notificationId: plain.notificationId, templateName: 'Plain' }),
    ]);
  });

  it("names a dropped notification's template from its delivery, and nothing without one", async () => {
    const app = makeTestApp({ clock: manualClock(), maxNotifications: 1 });
    const dropped = await sendOrder(app, 'user-1');
    await callOk(app, 'POST', '/api/analytics/events', event(dropped, 'viewed', 'in_app', 'user-9'));
    await sendOk(app, { template: { key: 'plain' }, targets: ['user-2'], mode: 'realtime' });
    const sent = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-1');
    expect(sent.body.notifications.map((n) => n.templateName)).toEqual(['Order Confirmation', 'Order Confirmation']);
    const eventOnly = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-9');
    expect(eventOnly.status).toBe(200);
    expect(eventOnly.body.notifications).toEqual([
      expect.objectContaining({ notificationId: dropped, templateName: null, viewed: true }),
    ]);
  });

  it("names a deleted template's row by the key its delivery was sent with", async () => {
    const app = makeTestApp({ clock: manualClock() });
    const channel = await callOk<Channel>(app, 'POST', '/api/channels', {
      name: 'Alerts',
      type: 'in_app',
      templateType: 'ui',
    });
    const template = await callOk<{ id: string; key: string }>(app, 'POST', '/api/templates', {
      name: 'Promo',
      channelIds: [channel.id],
    });
    await callOk(app, 'PUT', `/api/templates/${template.id}`, { status: 'approved' });
    await sendOk(app, { template: { key: template.key }, targets: ['user-1'], mode: 'realtime' });
    await callOk(app, 'DELETE', `/api/templates/${template.id}`);
    const res = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-1');
    expect(res.status).toBe(200);
    expect(res.body.notifications.map((n) => n.templateName)).toEqual([template.key]);
  });

  it('answers zeros and an empty list for a user without history, and ignores other apps', async () => {
    const app = makeTestApp();
    await sendOrder(app, 'user-1', 'app-a');
    const res = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-1', undefined, { appId: 'app-b' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: 'user-1', summary: { delivered: 0, viewed: 0, clicked: 0 }, notifications: [] });
  });
});
