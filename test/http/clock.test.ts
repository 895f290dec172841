import type { ClockState, Campaign } from '../../src/index.js';
import { describe, expect, it } from 'vitest';
import { errorOf, expectApiError, makeTestApp, manualClock, call, send, callOk } from '../helpers/app.js';
import { createCampaign, waitForCampaignStatus } from '../helpers/campaigns.js';
import type { AddRecipientsResult, CampaignView, DeliveryPage, Health } from '../helpers/api-types.js';

describe('/__clock', () => {
  it('GET answers the current instant and mode', async () => {
    const res = await call(makeTestApp({ clock: manualClock() }), 'GET', '/__clock');
    expect(res.body).toEqual({ now: '2030-01-01T00:00:00.000Z', mode: 'manual' });
    const real = await call<ClockState>(makeTestApp(), 'GET', '/__clock');
    expect(real.body.mode).toBe('real');
    expect(Date.parse(real.body.now)).not.toBeNaN();
  });

  it('POST {advanceMs} switches a real clock to manual and moves it forward', async () => {
    const app = makeTestApp();
    const before = Date.parse((await call<ClockState>(app, 'GET', '/__clock')).body.now);
    const res = await call<ClockState>(app, 'POST', '/__clock', { advanceMs: 86_400_000 });
    expect(res.status).toBe(200);
    expect(res.body.mode).toBe('manual');
    expect(Date.parse(res.body.now) - before).toBeGreaterThanOrEqual(86_400_000);
  });

  it('POST {now} sets the instant; records use it', async () => {
    const app = makeTestApp({ clock: manualClock() });
    expect((await call<ClockState>(app, 'POST', '/__clock', { now: '2031-05-06T07:08:09+02:00' })).body).toEqual({
      now: '2031-05-06T05:08:09.000Z',
      mode: 'manual',
    });
    const campaign = await call<Campaign>(app, 'POST', '/api/campaigns', {
      name: 'x',
      templateId: 'plain',
      deliveryMode: 'batch',
    });
    expect(campaign.body.createdAt).toBe('2031-05-06T05:08:09.000Z');
  });

  it('POST {mode: "real"} goes back to real time and {mode: "manual"} freezes it', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const real = await call<ClockState>(app, 'POST', '/__clock', { mode: 'real' });
    expect(real.body.mode).toBe('real');
    expect(Math.abs(Date.parse(real.body.now) - Date.now())).toBeLessThan(60_000);
    const frozen = await call<ClockState>(app, 'POST', '/__clock', { mode: 'manual' });
    expect(frozen.body.mode).toBe('manual');
    expect((await call<ClockState>(app, 'GET', '/__clock')).body.now).toBe(frozen.body.now);
  });

  it('answers 400 with the envelope for bad bodies, naming the field', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const cases: [unknown, string][] = [
      [{ advanceMs: -1 }, 'advanceMs'],
      [{ advanceMs: 1.5 }, 'advanceMs'],
      [{ advanceMs: '10' }, 'advanceMs'],
      [{ now: 'yesterday' }, 'now'],
      [{ mode: 'fast' }, 'mode'],
      [{ speed: 2 }, '(body)'],
      [{}, '(body)'],
      [{ advanceMs: 1, now: '2030-01-01T00:00:00Z' }, '(body)'],
    ];
    for (const [body, field] of cases) {
      const res = await call<ClockState>(app, 'POST', '/__clock', body);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(Object.keys(errorOf(res).details), JSON.stringify(body)).toContain(field);
    }
    expectApiError(
      await call<ClockState>(app, 'POST', '/__clock', undefined, { raw: 'advanceMs=5' }),
      400,
      'ERR_BAD_REQUEST',
    );
    expect((await call<ClockState>(app, 'GET', '/__clock')).body.now).toBe('2030-01-01T00:00:00.000Z');
  });

  it('refuses instants a date cannot hold from every entry point, with 400 and nothing changed', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const tooFar = await call<ClockState>(app, 'POST', '/__clock', { advanceMs: 8_640_000_000_000_000 });
    expectApiError(tooFar, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(tooFar).details.advanceMs).toMatch(/latest instant/);
    for (const now of ['9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z']) {
      expect((await call<ClockState>(app, 'POST', '/__clock', { now })).status).toBe(200);
    }
    // At year 0 the largest advance a date can hold is fine; one more millisecond is not.
    const edge = 8.64e15 - Date.parse('0000-01-01T00:00:00Z');
    expectApiError(await call<ClockState>(app, 'POST', '/__clock', { advanceMs: edge + 1 }), 400, 'ERR_BAD_REQUEST');
    expect((await call<ClockState>(app, 'GET', '/__clock')).body.now).toBe('0000-01-01T00:00:00.000Z');
    expect((await call<ClockState>(app, 'POST', '/__clock', { advanceMs: edge })).body.now).toBe(
      '+275760-09-13T00:00:00.000Z',
    );
    // The emulator keeps working at the edge.
    expect((await call<Health>(app, 'GET', '/__health')).status).toBe(200);
    expect((await send(app, { mode: 'realtime', targets: ['u1'], template: { key: 'plain' } })).status).toBe(200);
  });

  it('moves backwards on POST {now} (allowed, like a fake timer): later records carry the earlier time', async () => {
    const app = makeTestApp({ clock: manualClock('2030-06-01T00:00:00.000Z') });
    await send(app, { template: { key: 'plain' }, targets: ['before'], mode: 'realtime' });
    const back = await call<ClockState>(app, 'POST', '/__clock', { now: '2030-01-01T00:00:00Z' });
    expect(back.body).toEqual({ now: '2030-01-01T00:00:00.000Z', mode: 'manual' });
    await send(app, { template: { key: 'plain' }, targets: ['after'], mode: 'realtime' });
    const items = (await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries')).body.items;
    // Lists stay in the order things happened; timestamps follow the clock.
    expect(items.map((d: { userId: string; createdAt: string }) => [d.userId, d.createdAt])).toEqual([
      ['before', '2030-06-01T00:00:00.000Z'],
      ['after', '2030-01-01T00:00:00.000Z'],
    ]);
    const since = await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries?since=2030-03-01T00:00:00Z');
    expect(since.body.items.map((d: { userId: string }) => d.userId)).toEqual(['before']);
  });

  it('moving backwards never un-starts a campaign, and a scheduled one waits for its time again', async () => {
    const app = makeTestApp({ clock: manualClock('2030-01-01T00:00:00.000Z') });
    const campaign = (
      await call<Campaign>(app, 'POST', '/api/campaigns', { name: 'x', templateId: 'plain', deliveryMode: 'batch' })
    ).body;
    await callOk<AddRecipientsResult>(app, 'POST', `/api/campaigns/${campaign.id}/recipients`, { userIds: ['u1'] });
    const scheduled = await call<Campaign>(app, 'POST', `/api/campaigns/${campaign.id}/send`, {
      scheduledAt: '2030-01-02T00:00:00Z',
    });
    expect(scheduled.body.status).toBe('scheduled');
    await callOk<ClockState>(app, 'POST', '/__clock', { now: '2029-12-01T00:00:00Z' });
    expect((await call<CampaignView>(app, 'GET', `/__inspect/campaigns/${campaign.id}`)).body.status).toBe('scheduled');
    await callOk<ClockState>(app, 'POST', '/__clock', { now: '2030-01-03T00:00:00Z' });
    const started = (await call<CampaignView>(app, 'GET', `/__inspect/campaigns/${campaign.id}`)).body.status;
    expect(['sending', 'sent']).toContain(started);
    await callOk<ClockState>(app, 'POST', '/__clock', { now: '2029-01-01T00:00:00Z' });
    expect((await call<CampaignView>(app, 'GET', `/__inspect/campaigns/${campaign.id}`)).body.status).not.toBe(
      'scheduled',
    );
  });

  it('back to real time, a campaign scheduled in manual time starts if its time has passed, else waits', async () => {
    const app = makeTestApp({ clock: manualClock('2020-01-01T00:00:00.000Z') });
    const schedule = async (scheduledAt: string) => {
      const campaign = await createCampaign(app, { templateId: 'plain' });
      await callOk<AddRecipientsResult>(app, 'POST', `/api/campaigns/${campaign.id}/recipients`, { userIds: ['u1'] });
      await callOk<Campaign>(app, 'POST', `/api/campaigns/${campaign.id}/send`, { scheduledAt });
      return campaign.id;
    };
    const due = await schedule('2020-01-02T00:00:00Z');
    const later = await schedule('2999-01-01T00:00:00Z');
    await callOk<ClockState>(app, 'POST', '/__clock', { mode: 'real' });
    await waitForCampaignStatus(app, due, 'sent');
    expect((await call<CampaignView>(app, 'GET', `/__inspect/campaigns/${later}`)).body.status).toBe('scheduled');
    // A reset of an emulator that started in manual time goes back to that instant; the campaigns are gone.
    await callOk(app, 'POST', '/__reset');
    expect((await call<ClockState>(app, 'GET', '/__clock')).body).toEqual({
      now: '2020-01-01T00:00:00.000Z',
      mode: 'manual',
    });
  });

  it('a reset of an emulator that started in real time goes back to real time', async () => {
    const app = makeTestApp();
    await callOk<ClockState>(app, 'POST', '/__clock', { now: '2020-01-01T00:00:00Z' });
    await callOk(app, 'POST', '/__reset');
    const clock = (await call<ClockState>(app, 'GET', '/__clock')).body;
    expect(clock.mode).toBe('real');
    expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(60_000);
  });
});
