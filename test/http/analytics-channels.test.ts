/** GET /api/analytics/channels: counts per channel type and time bucket, from deliveries and events. */
import type { Channel, ChannelMetrics } from '../helpers/api-types.js';
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, manualClock, callOk, sendOk, errorOf, call } from '../helpers/app.js';
import { createCampaign, orderCsv, upload, waitForCampaignStatus } from '../helpers/campaigns.js';
import { DAY, deliveredPerDay, event, sendOrder } from '../helpers/analytics.js';

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

  it('counts an event at the very instant of from and to, in the one bucket of that range', async () => {
    const clock = manualClock('2030-01-01T10:00:00.000Z');
    const app = makeTestApp({ clock });
    const notificationId = await sendOrder(app, 'user-1');
    await callOk(app, 'POST', '/api/analytics/events', event(notificationId, 'viewed'));
    const at = 'from=2030-01-01T10:00:00.000Z&to=2030-01-01T10:00:00.000Z&granularity=hourly';
    const res = await call<ChannelMetrics[]>(app, 'GET', `/api/analytics/channels?${at}`);
    expect(res.status).toBe(200);
    expect(res.body.map((m) => [m.channelType, m.timeSeries])).toEqual([
      ['in_app', [{ date: '2030-01-01T10:00:00.000Z', delivered: 1, viewed: 1, clicked: 0 }]],
      ['push', [{ date: '2030-01-01T10:00:00.000Z', delivered: 1, viewed: 0, clicked: 0 }]],
    ]);
  });

  it('leaves out events before and after the range', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const notificationId = await sendOrder(app, 'user-1');
    await callOk(app, 'POST', '/api/analytics/events', event(notificationId, 'viewed'));
    clock.advance(2 * DAY);
    await callOk(app, 'POST', '/api/analytics/events', event(notificationId, 'clicked'));
    const res = await call<ChannelMetrics[]>(app, 'GET', '/api/analytics/channels?from=2030-01-02&to=2030-01-02');
    expect(res.status).toBe(200);
    for (const metrics of res.body) expect(metrics).toMatchObject({ delivered: 0, viewed: 0, clicked: 0 });
  });

  it('counts a `delivered` event for a user the emulator did not deliver to, once, at its time', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    const notificationId = await sendOrder(app, 'user-1');
    // user-9 has an in_app delivery of another notification: it says nothing of this one.
    await sendOk(app, { template: { key: 'plain' }, targets: ['user-9'], mode: 'realtime' });
    clock.advance(DAY);
    await callOk(app, 'POST', '/api/analytics/events', event(notificationId, 'delivered', 'in_app', 'user-9'));
    // A `delivered` event after the emulator's own delivery adds nothing: it was counted when sent.
    await callOk(app, 'POST', '/api/analytics/events', event(notificationId, 'delivered', 'in_app', 'user-1'));
    expect(await deliveredPerDay(app, '2030-01-01', '2030-01-02')).toEqual({ in_app: [2, 1], push: [1, 0] });
  });

  it('counts a `delivered` event for a failed delivery at the event time', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    await callOk(app, 'POST', '/__scenarios', {
      name: 'fail-user-9',
      rules: [{ match: { userId: 'user-9' }, fault: { failDelivery: 'unreachable' } }],
    });
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['fail-user-9'] });
    const { notificationId } = await sendOk(app, { template: { key: 'plain' }, targets: ['user-9'], mode: 'realtime' });
    clock.advance(DAY);
    await callOk(app, 'POST', '/api/analytics/events', event(notificationId, 'delivered', 'in_app', 'user-9'));
    expect(await deliveredPerDay(app, '2030-01-01', '2030-01-02')).toEqual({ in_app: [0, 1] });
  });

  it('moves a delivery to the time of a `delivered` event recorded before the campaign sent it', async () => {
    const clock = manualClock();
    const app = makeTestApp({ clock });
    // user-1's delivery of another notification, earlier still, is not this campaign's.
    await sendOk(app, { template: { key: 'plain' }, targets: ['user-1'], mode: 'realtime' });
    const campaign = await createCampaign(app);
    expect((await upload(app, orderCsv(['user-1']), campaign.id)).status).toBe(200);
    clock.advance(DAY);
    await callOk(app, 'POST', '/api/analytics/events', event(campaign.id, 'delivered', 'in_app', 'user-1'));
    clock.advance(DAY);
    await callOk(app, 'POST', `/api/campaigns/${campaign.id}/send`, {});
    await waitForCampaignStatus(app, campaign.id, 'sent');
    expect(await deliveredPerDay(app, '2030-01-01', '2030-01-03')).toEqual({ in_app: [1, 1, 0], push: [0, 0, 1] });
    // Each end of the move may lie outside the range asked for.
    expect(await deliveredPerDay(app, '2030-01-02', '2030-01-02')).toEqual({ in_app: [1] });
    expect(await deliveredPerDay(app, '2030-01-03', '2030-01-03')).toEqual({ in_app: [0], push: [1] });
  });

  it('moves a notification delivered earlier than it was sent (the clock set back) to the event time', async () => {
    const clock = manualClock('2030-01-02T00:00:00.000Z');
    const app = makeTestApp({ clock });
    const notificationId = await sendOk(app, {
      template: { key: 'plain' },
      targets: ['user-1'],
      mode: 'realtime',
    }).then((n) => n.notificationId);
    clock.set('2030-01-01T00:00:00.000Z');
    await callOk(app, 'POST', '/api/analytics/events', event(notificationId, 'delivered', 'in_app', 'user-1'));
    expect(await deliveredPerDay(app, '2030-01-01', '2030-01-02')).toEqual({ in_app: [1, 0] });
  });

  it('lists a channel type it does not know (an imported trace holds it) after the known ones', async () => {
    const clock = manualClock();
    const source = makeTestApp({ clock });
    await sendOrder(source, 'user-1');
    // A day whose only delivery failed: nothing to list then.
    await callOk(source, 'POST', '/__scenarios', {
      name: 'fail-user-2',
      rules: [{ match: { userId: 'user-2' }, fault: { failDelivery: 'unreachable' } }],
    });
    await callOk(source, 'PUT', '/__scenarios/active', { names: ['fail-user-2'] });
    clock.advance(DAY);
    await sendOrder(source, 'user-2');
    const trace = await (await source.request('/__export')).text();
    const app = makeTestApp({ clock: manualClock() });
    await callOk(app, 'POST', '/__import', undefined, {
      raw: trace.replaceAll('"channels":["in_app","push"]', '"channels":["fax","push"]'),
    });
    const counts = await deliveredPerDay(app, '2030-01-01', '2030-01-01');
    expect(Object.entries(counts)).toEqual([
      ['push', [1]],
      ['fax', [1]],
    ]);
    expect(await deliveredPerDay(app, '2030-01-02', '2030-01-02')).toEqual({});
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
    expect(expectApiError(reversed, 400, 'ERR_BAD_REQUEST').devMessage).toBe('"from" is after "to".');
    expect(errorOf(reversed).details).toEqual({ from: 'must not be after "to"' });
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
    expect(errorOf(over).devMessage).toBe('The range holds more than 10000 daily buckets; narrow it.');
    // A `to` at the start of the 10,001st day opens that bucket too.
    const edge = await call(app, 'GET', '/api/analytics/channels?from=2000-01-01&to=2027-05-19T00:00:00.000Z');
    expectApiError(edge, 400, 'ERR_BAD_REQUEST');
  });
});
