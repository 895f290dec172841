import type { Channel, ChannelMetrics, UserInsights } from '../helpers/api-types.js';
import { describe, expect, it } from 'vitest';
import { CTA, expectApiError, makeTestApp, manualClock, callOk, sendOk, errorOf, call, send } from '../helpers/app.js';
import type { EmulatorApp, Campaign } from '../../src/index.js';
import { createCampaign, orderCsv, upload, waitForCampaignStatus } from '../helpers/campaigns.js';

/** order-confirmation delivers through in_app and push. */
async function sendOrder(app: EmulatorApp, userId: string, appId = 'app-test'): Promise<string> {
  const res = await send(
    app,
    {
      template: { key: 'order-confirmation', variables: { customerName: 'Ada', cta: CTA } },
      targets: [userId],
      mode: 'realtime',
    },
    { appId },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.notificationId;
}

const event = (campaignId: string, eventType: string, channelType = 'in_app', userId = 'user-1') => ({
  campaignId,
  userId,
  channelType,
  eventType,
});

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

  it('answers zeros and an empty list for a user without history, and ignores other apps', async () => {
    const app = makeTestApp();
    await sendOrder(app, 'user-1', 'app-a');
    const res = await call<UserInsights>(app, 'GET', '/api/analytics/users/user-1', undefined, { appId: 'app-b' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: 'user-1', summary: { delivered: 0, viewed: 0, clicked: 0 }, notifications: [] });
  });
});

describe('GET /api/analytics/channels', () => {
  it('counts per channel type with a daily time series over the range', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const first = await sendOrder(app, 'user-1');
    await sendOrder(app, 'user-2');
    clock.advance(86_400_000);
    await callOk<{ success: boolean; eventId: string }>(app, 'POST', '/api/analytics/events', event(first, 'viewed'));
    await callOk<{ success: boolean; eventId: string }>(
      app,
      'POST',
      '/api/analytics/events',
      event(first, 'clicked', 'push'),
    );
    await sendOrder(app, 'user-3', 'other-app');
    const res = await call<ChannelMetrics[]>(app, 'GET', '/api/analytics/channels?from=2030-01-01&to=2030-01-03');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        channelType: 'in_app',
        delivered: 2,
        viewed: 1,
        clicked: 0,
        timeSeries: [
          { date: '2030-01-01', delivered: 2, viewed: 0, clicked: 0 },
          { date: '2030-01-02', delivered: 0, viewed: 1, clicked: 0 },
          { date: '2030-01-03', delivered: 0, viewed: 0, clicked: 0 },
        ],
      },
      {
        channelType: 'push',
        delivered: 2,
        viewed: 0,
        clicked: 1,
        timeSeries: [
          { date: '2030-01-01', delivered: 2, viewed: 0, clicked: 0 },
          { date: '2030-01-02', delivered: 0, viewed: 0, clicked: 1 },
          { date: '2030-01-03', delivered: 0, viewed: 0, clicked: 0 },
        ],
      },
    ]);
  });

  it('buckets by hour with granularity=hourly and leaves out activity outside the range', async () => {
    const clock = manualClock('2030-01-01T10:30:00.000Z');
    const app = makeTestApp({ clock });
    await sendOk(app, { template: { key: 'plain' }, targets: ['user-1'], mode: 'realtime' });
    clock.advance(3 * 3_600_000);
    await sendOk(app, { template: { key: 'plain' }, targets: ['user-2'], mode: 'realtime' });
    const res = await call(
      app,
      'GET',
      '/api/analytics/channels?from=2030-01-01T10:00:00Z&to=2030-01-01T12:59:59Z&granularity=hourly',
    );
    expect(res.body).toEqual([
      {
        channelType: 'in_app',
        delivered: 1,
        viewed: 0,
        clicked: 0,
        timeSeries: [
          { date: '2030-01-01T10:00:00.000Z', delivered: 1, viewed: 0, clicked: 0 },
          { date: '2030-01-01T11:00:00.000Z', delivered: 0, viewed: 0, clicked: 0 },
          { date: '2030-01-01T12:00:00.000Z', delivered: 0, viewed: 0, clicked: 0 },
        ],
      },
    ]);
  });

  it("lists the app's configured channel types even without activity", async () => {
    const app = makeTestApp();
    await callOk<Channel>(app, 'POST', '/api/channels', { name: 'Push', type: 'push', templateType: 'data' });
    const res = await call<ChannelMetrics[]>(app, 'GET', '/api/analytics/channels?from=2030-01-01&to=2030-01-01');
    expect(res.body).toEqual([
      {
        channelType: 'push',
        delivered: 0,
        viewed: 0,
        clicked: 0,
        timeSeries: [{ date: '2030-01-01', delivered: 0, viewed: 0, clicked: 0 }],
      },
    ]);
  });

  it('answers 400 ERR_BAD_REQUEST when from or to is missing or not a date', async () => {
    const app = makeTestApp();
    const missing = await call<ChannelMetrics[]>(app, 'GET', '/api/analytics/channels');
    expectApiError(missing, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(missing).details).sort()).toEqual(['from', 'to']);
    const bad = await call<ChannelMetrics[]>(
      app,
      'GET',
      '/api/analytics/channels?from=yesterday&to=2030-01-01&granularity=weekly',
    );
    expectApiError(bad, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(bad).details).sort()).toEqual(['from', 'granularity']);
  });

  it('reads empty values as absent: granularity= is daily, from= is missing', async () => {
    const app = makeTestApp();
    const daily = await call<ChannelMetrics[]>(
      app,
      'GET',
      '/api/analytics/channels?from=2030-01-01&to=2030-01-02&granularity=',
    );
    expect(daily.status).toBe(200);
    const empty = await call<ChannelMetrics[]>(app, 'GET', '/api/analytics/channels?from=&to=2030-01-02');
    expectApiError(empty, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(empty).details.from).toMatch(/is required/);
  });

  it('answers 400 ERR_BAD_REQUEST when from is after to, or the range has too many buckets', async () => {
    const app = makeTestApp();
    const reversed = await call<ChannelMetrics[]>(app, 'GET', '/api/analytics/channels?from=2030-02-01&to=2030-01-01');
    expectApiError(reversed, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(reversed).details).toHaveProperty('from');
    const tooLong = await call<ChannelMetrics[]>(
      app,
      'GET',
      '/api/analytics/channels?from=2020-01-01&to=2030-01-01&granularity=hourly',
    );
    expectApiError(tooLong, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(tooLong).details).toHaveProperty('to');
    expect(errorOf(tooLong).devMessage).toMatch(/narrow it or use daily granularity/);
  });

  it('answers 10,000 daily buckets, and refuses 10,001 without advising the daily granularity it has', async () => {
    const app = makeTestApp({ clock: manualClock('2027-05-18T12:00:00.000Z') });
    await sendOrder(app, 'user-1');
    const most = await call<ChannelMetrics[]>(app, 'GET', '/api/analytics/channels?from=2000-01-01&to=2027-05-18');
    expect(most.status).toBe(200);
    expect(most.body.length).toBeGreaterThan(0);
    for (const channel of most.body) expect(channel.timeSeries).toHaveLength(10_000);
    const over = await call<ChannelMetrics[]>(app, 'GET', '/api/analytics/channels?from=2000-01-01&to=2027-05-19');
    expectApiError(over, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(over).details.to).toMatch(/daily granularity \(max 10000 buckets\)/);
    expect(errorOf(over).devMessage).not.toMatch(/use daily/);
  });
});
