import type { createMemoryStore as createMemoryStoreType, ClockState } from '../../src/index.js';
import type { Delivery, Recipient, Campaign } from '../../src/index.js';
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, manualClock, callOk, type List, errorOf, call } from '../helpers/app.js';
import { createCampaign, orderCsv, upload, waitForCampaignStatus } from '../helpers/campaigns.js';
import { alertsChannel } from '../helpers/channels.js';

const FAIL_USER_9 = {
  name: 'fail-9',
  rules: [{ match: { userId: 'user-9*' }, fault: { failDelivery: 'device unreachable' } }],
};
const FAIL_ALL = { name: 'fail-all', rules: [{ match: { userId: '*' }, fault: { failDelivery: 'offline' } }] };

describe('POST /api/campaigns/{id}/send: the CSV workflow end to end', () => {
  it('create → upload → send → sent, with per-recipient status and one delivery per recipient', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app, { tag: 'spring' });
    expect((await upload(app, orderCsv(['u1', 'u2', 'u3']), c.id)).body.recipientsAdded).toBe(3);

    const res = await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: c.id, status: 'sending', scheduledAt: null, updatedAt: expect.any(String) });

    const deliveries = (await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?campaignId=${c.id}&waitFor=3`))
      .body;
    expect(deliveries.total).toBe(3);
    expect(deliveries.items[0]).toMatchObject({
      campaignId: c.id,
      notificationId: null,
      userId: 'u1',
      mode: 'batch',
      tag: 'spring',
      status: 'sent',
      templateKey: 'order-confirmation',
      variables: { customerName: 'Name u1' },
      rendered: { in_app: { title: 'Hi Name u1', button: 'https://shop.example/track' } },
    });
    const done = await waitForCampaignStatus(app, c.id, 'sent');
    expect(done).toMatchObject({
      sentCount: 3,
      failedCount: 0,
      recipientCount: 3,
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    const recipients = (await call<Recipient[]>(app, 'GET', `/api/campaigns/${c.id}/recipients?status=sent`)).body;
    expect(recipients).toHaveLength(3);
    const byDelivery = new Map(deliveries.items.map((d) => [d.id, d.userId]));
    for (const r of recipients) expect(byDelivery.get(r.deliveryId ?? '')).toBe(r.userId);
  });

  it('accepts an absent body as "send now" and uses the campaign\'s delivery mode', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app, { templateId: 'plain', deliveryMode: 'realtime' });
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    const res = await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, undefined, { raw: '' });
    expect(res.body.status).toBe('sending');
    const deliveries = (await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?campaignId=${c.id}&waitFor=1`))
      .body;
    expect(deliveries.items[0]!.mode).toBe('realtime');
  });

  it('marks the recipients a scenario fails as failed, and the campaign sent when some succeed', async () => {
    const app = makeTestApp({ scenarios: [FAIL_USER_9] });
    const c = await createCampaign(app);
    expect((await upload(app, orderCsv(['user-1', 'user-9a', 'user-2']), c.id)).status).toBe(200);
    await callOk<Campaign>(
      app,
      'POST',
      `/api/campaigns/${c.id}/send`,
      {},
      { headers: { 'x-emulator-scenario': 'fail-9' } },
    );
    const done = await waitForCampaignStatus(app, c.id, 'sent');
    expect(done).toMatchObject({ sentCount: 2, failedCount: 1 });
    const failed = (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients?status=failed`))
      .body;
    expect(failed.items).toEqual([
      expect.objectContaining({ userId: 'user-9a', status: 'failed', failureReason: 'device unreachable' }),
    ]);
    expect(
      (await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?campaignId=${c.id}&status=failed`)).body.items[0],
    ).toMatchObject({ userId: 'user-9a', scenario: 'fail-9' });
  });

  it('ends failed when every recipient failed', async () => {
    const app = makeTestApp({ scenarios: [FAIL_ALL] });
    const c = await createCampaign(app);
    expect((await upload(app, orderCsv(['a', 'b']), c.id)).status).toBe(200);
    await callOk<Campaign>(
      app,
      'POST',
      `/api/campaigns/${c.id}/send`,
      {},
      { headers: { 'x-emulator-scenario': 'fail-all' } },
    );
    expect(await waitForCampaignStatus(app, c.id, 'failed')).toMatchObject({ sentCount: 0, failedCount: 2 });
  });

  it('stops sending a campaign when the emulator closes', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app, { templateId: 'plain' });
    const userIds = Array.from({ length: 1_000 }, (_, i) => `u${i}`);
    await callOk(app, 'POST', `/api/campaigns/${c.id}/recipients`, { userIds });
    await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {});
    await app.close();
    const sentAtClose = app.emulator.store.getCampaign(c.id)!.sentCount;
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(app.emulator.store.getCampaign(c.id)).toMatchObject({ status: 'sending', sentCount: sentAtClose });
  });

  it('delivers 100,000 recipients from a CSV upload', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const rows: string[] = ['user_id,customerName,cta'];
    for (let i = 0; i < 100_000; i++)
      rows.push(`user-${i},Customer ${i},"{""type"":""web"",""data"":""https://x/${i}""}"`);
    const up = await upload(app, rows.join('\n'), c.id);
    expect(up.body, JSON.stringify(up.body).slice(0, 500)).toMatchObject({
      recipientsAdded: 100_000,
      total: 100_000,
      skipped: 0,
    });
    expect((await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {})).body.status).toBe('sending');
    const deliveries = await call<List<Delivery>>(
      app,
      'GET',
      `/__inspect/deliveries?campaignId=${c.id}&waitFor=100000&timeoutMs=60000&limit=1&offset=99999`,
    );
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.items[0]).toMatchObject({
      userId: 'user-99999',
      variables: { cta: { data: 'https://x/99999' } },
    });
    expect(await waitForCampaignStatus(app, c.id, 'sent', 60_000)).toMatchObject({
      sentCount: 100_000,
      failedCount: 0,
    });
    expect(
      (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients?status=pending&limit=0`)).body
        .total,
    ).toBe(0);
  }, 120_000); // generous: the suite shares two cores
});

describe('POST /api/campaigns/{id}/send: preconditions', () => {
  it('answers 400 for a campaign without recipients', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const res = await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {});
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toEqual({ recipientCount: 'must be at least 1' });
    expect(errorOf(res).devMessage).toBe(
      `Campaign ${c.id} has no recipients; add some with POST /api/campaigns/${c.id}/recipients or a CSV upload first.`,
    );
  });

  it('answers 400 for a campaign that is not a draft (sending, scheduled, sent)', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const c = await createCampaign(app);
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, { scheduledAt: '2030-01-01T01:00:00Z' });
    const scheduled = await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {});
    expect(expectApiError(scheduled, 400, 'ERR_BAD_REQUEST').devMessage).toBe(
      `Campaign ${c.id} is "scheduled"; sending needs a campaign in "draft" status.`,
    );
    await callOk<ClockState>(app, 'POST', '/__clock', { advanceMs: 3_600_000 });
    expectApiError(await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {}), 400, 'ERR_BAD_REQUEST');
    await waitForCampaignStatus(app, c.id, 'sent');
    expectApiError(await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {}), 400, 'ERR_BAD_REQUEST');
  });

  it('answers 400 ERR_TEMPLATE_NOT_APPROVED when the template was unapproved after create', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app, { templateId: 'plain' });
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    const template = app.emulator.templates.findByKey('app-test', 'plain')!;
    app.emulator.templates.replaceFixtures(
      app.emulator.templates.list().map((t) => (t.id === template.id ? { ...t, status: 'draft' as const } : t)),
    );
    expectApiError(
      await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {}),
      400,
      'ERR_TEMPLATE_NOT_APPROVED',
    );
  });

  it('answers 400 for a scheduledAt that is not ISO 8601 or not in the future', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const c = await createCampaign(app);
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    const pastWhatADateHolds = ['+275760-09-14T00:00:00Z', '2030-02-31T00:00:00Z'];
    const past = ['2029-12-31T23:59:59Z', '2030-01-01T00:00:00Z'];
    for (const scheduledAt of ['tomorrow', '2030-01-01', 12345, ...pastWhatADateHolds, ...past]) {
      const res = await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, { scheduledAt });
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(errorOf(res).details).toHaveProperty('scheduledAt');
    }
    const now = await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {
      scheduledAt: '2030-01-01T00:00:00Z',
    });
    expect(errorOf(now).details).toEqual({ scheduledAt: 'must be in the future' });
    expect(errorOf(now).devMessage).toBe(
      'scheduledAt 2030-01-01T00:00:00Z is not in the future (emulator clock: 2030-01-01T00:00:00.000Z); ' +
        'omit it to send now.',
    );
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body.status).toBe('draft');
  });

  it("answers 404 for another app's campaign and for malformed JSON 400", async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    expectApiError(
      await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {}, { appId: 'app-other' }),
      404,
      'ERR_NOT_FOUND',
    );
    expectApiError(
      await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, undefined, {
        raw: '{oops',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'ERR_BAD_REQUEST',
    );
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body.status).toBe('draft');
  });
});

describe('scheduled campaigns', () => {
  it('fail every recipient, naming why, when their template was deleted or archived before the start', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const template = await callOk<{ id: string }>(app, 'POST', '/api/templates', {
      name: 'Doomed',
      channelIds: [await alertsChannel(app)],
      variableSchema: {},
      content: { in_app: { title: 'Hello' } },
    });
    await callOk(app, 'PUT', `/api/templates/${template.id}`, { status: 'approved' });
    const scheduled = async (templateId: string) => {
      const c = await createCampaign(app, { templateId });
      await callOk(app, 'POST', `/api/campaigns/${c.id}/recipients`, { userIds: ['u1', 'u2'] });
      await callOk(app, 'POST', `/api/campaigns/${c.id}/send`, { scheduledAt: '2030-01-02T00:00:00Z' });
      return c.id;
    };
    const deleted = await scheduled(template.id);
    const archived = await scheduled('plain');
    await callOk(app, 'DELETE', `/api/templates/${template.id}`);
    await callOk(app, 'PUT', '/api/templates/plain', { status: 'archived' });
    await callOk(app, 'POST', '/__clock', { now: '2030-01-02T00:00:00Z' });
    for (const [id, reason] of [
      [deleted, `template ${template.id} no longer exists`],
      [archived, 'template "plain" is "archived" at send time; only approved templates can be sent'],
    ] as const) {
      expect(await waitForCampaignStatus(app, id, 'failed')).toMatchObject({ sentCount: 0, failedCount: 2 });
      const recipients = await callOk<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${id}/recipients`);
      // No delivery was made for them: the id is null, not left out.
      expect(recipients.items.map((r) => [r.status, r.failureReason, r.deliveryId])).toEqual([
        ['failed', reason, null],
        ['failed', reason, null],
      ]);
    }
  });

  it('schedules with a manual clock and starts at once when the clock is advanced past scheduledAt', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const c = await createCampaign(app);
    expect((await upload(app, orderCsv(['u1', 'u2']), c.id)).status).toBe(200);
    const res = await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {
      scheduledAt: '2030-01-01T10:00:00+01:00',
    });
    expect(res.body).toEqual({
      id: c.id,
      status: 'scheduled',
      scheduledAt: '2030-01-01T09:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body).toMatchObject({
      status: 'scheduled',
      scheduledAt: '2030-01-01T09:00:00.000Z',
    });

    await callOk<ClockState>(app, 'POST', '/__clock', { advanceMs: 9 * 3_600_000 - 1 });
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body.status).toBe('scheduled');
    await callOk<ClockState>(app, 'POST', '/__clock', { advanceMs: 1 });
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body.status).toBe('sending');
    const done = await waitForCampaignStatus(app, c.id, 'sent');
    expect(done).toMatchObject({ startedAt: '2030-01-01T09:00:00.000Z', sentCount: 2 });
    const deliveries = (await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?campaignId=${c.id}`)).body;
    expect(deliveries.items.map((d) => d.createdAt)).toEqual(['2030-01-01T09:00:00.000Z', '2030-01-01T09:00:00.000Z']);
  });

  it('starts a campaign when POST /__clock {now} jumps past scheduledAt', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const c = await createCampaign(app);
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, { scheduledAt: '2030-06-01T00:00:00Z' });
    await callOk<ClockState>(app, 'POST', '/__clock', { now: '2030-07-01T00:00:00Z' });
    await waitForCampaignStatus(app, c.id, 'sent');
  });

  it('schedules on real time: a scheduledAt ~300 ms ahead is delivered without touching the clock', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1', 'u2'],
    });
    const scheduledAt = new Date(Date.now() + 300).toISOString();
    expect((await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, { scheduledAt })).body.status).toBe(
      'scheduled',
    );
    const res = await call<List<Delivery>>(
      app,
      'GET',
      `/__inspect/deliveries?campaignId=${c.id}&waitFor=2&timeoutMs=10000`,
    );
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    await waitForCampaignStatus(app, c.id, 'sent');
  });

  it('uses the scenario named at schedule time when the campaign starts later', async () => {
    const app = makeTestApp({ clock: manualClock(), scenarios: [FAIL_ALL] });
    const c = await createCampaign(app);
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    await callOk(
      app,
      'POST',
      `/api/campaigns/${c.id}/send`,
      { scheduledAt: '2030-01-02T00:00:00Z' },
      { headers: { 'x-emulator-scenario': 'fail-all' } },
    );
    await callOk<ClockState>(app, 'POST', '/__clock', { advanceMs: 86_400_000 });
    expect(await waitForCampaignStatus(app, c.id, 'failed')).toMatchObject({ failedCount: 1 });
  });

  it('fails every recipient when the template is no longer approved at start time', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const c = await createCampaign(app, { templateId: 'plain' });
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u1'],
    });
    await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, { scheduledAt: '2030-01-02T00:00:00Z' });
    const templates = app.emulator.templates;
    templates.replaceFixtures(
      templates.list().map((t) => (t.key === 'plain' ? { ...t, status: 'archived' as const } : t)),
    );
    await callOk<ClockState>(app, 'POST', '/__clock', { advanceMs: 86_400_000 });
    await waitForCampaignStatus(app, c.id, 'failed');
    const recipients = (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients`)).body.items;
    expect(recipients[0]).toMatchObject({
      status: 'failed',
      failureReason: expect.stringContaining('archived'),
      deliveryId: null,
    });
  });

  it('re-arms scheduled campaigns and resumes sending ones when an emulator starts on saved data', async () => {
    const first = makeTestApp({ clock: manualClock() });
    const scheduled = await createCampaign(first);
    await callOk<{ added: number; total: number }>(first, 'POST', `/api/campaigns/${scheduled.id}/recipients`, {
      userIds: ['s1'],
    });
    await callOk<Campaign>(first, 'POST', `/api/campaigns/${scheduled.id}/send`, {
      scheduledAt: '2030-01-02T00:00:00Z',
    });
    const sending = await createCampaign(first);
    await callOk<{ added: number; total: number }>(first, 'POST', `/api/campaigns/${sending.id}/recipients`, {
      userIds: ['r1', 'r2'],
    });
    const data = (first.emulator.store as ReturnType<typeof createMemoryStoreType>).snapshot();
    await first.close();
    // Simulate a stop in the middle of sending: the saved campaign is "sending" with pending recipients.
    data.campaigns = data.campaigns.map((c) => (c.id === sending.id ? { ...c, status: 'sending' } : c));

    const { createMemoryStore } = await import('../../src/index.js');
    const second = makeTestApp({ clock: manualClock(), store: createMemoryStore({ initial: data }) });
    await waitForCampaignStatus(second, sending.id, 'sent');
    expect((await call<Campaign>(second, 'GET', `/__inspect/campaigns/${scheduled.id}`)).body.status).toBe('scheduled');
    await callOk<ClockState>(second, 'POST', '/__clock', { advanceMs: 86_400_000 });
    await waitForCampaignStatus(second, scheduled.id, 'sent');
    await second.close();
  });

  it('never starts one cleared by DELETE /__inspect; a reset or clock move after it answers as usual', async () => {
    const app = makeTestApp({ clock: manualClock() });
    const c = await createCampaign(app);
    await callOk(app, 'POST', `/api/campaigns/${c.id}/recipients`, { userIds: ['s1'] });
    await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, { scheduledAt: '2030-01-02T00:00:00Z' });
    await callOk(app, 'DELETE', '/__inspect');
    await callOk(app, 'POST', '/__reset?appId=app-test', {});
    await callOk<ClockState>(app, 'POST', '/__clock', { advanceMs: 86_400_000 });
    expectApiError(await call(app, 'GET', `/__inspect/campaigns/${c.id}`), 404, 'ERR_NOT_FOUND');
    expect((await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries')).body.total).toBe(0);
  });

  it('starts a scheduled campaign whose time passed while the emulator was stopped, or is exactly now', async () => {
    for (const startsAt of ['2030-01-05T00:00:00.000Z', '2030-01-02T00:00:00.000Z']) {
      const first = makeTestApp({ clock: manualClock() });
      const c = await createCampaign(first);
      await callOk<{ added: number; total: number }>(first, 'POST', `/api/campaigns/${c.id}/recipients`, {
        userIds: ['s1'],
      });
      await callOk<Campaign>(first, 'POST', `/api/campaigns/${c.id}/send`, { scheduledAt: '2030-01-02T00:00:00Z' });
      const data = (first.emulator.store as ReturnType<typeof createMemoryStoreType>).snapshot();
      await first.close();
      const { createMemoryStore } = await import('../../src/index.js');
      const second = makeTestApp({ clock: manualClock(startsAt), store: createMemoryStore({ initial: data }) });
      expect(await waitForCampaignStatus(second, c.id, 'sent')).toMatchObject({ startedAt: startsAt });
      await second.close();
    }
  });
});
