/**
 * Retention caps on every kind of record: past each cap the oldest records go, /__health
 * counts what was dropped, and a campaign sending or scheduled is never dropped.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { makeTestApp, manualClock, call, send } from '../helpers/app.js';
import type {
  AddRecipientsResult,
  Campaign,
  CampaignView,
  Health,
  JournalPage,
  NotificationPage,
  RecipientPage,
} from '../helpers/api-types.js';

const plain = (targets: string[]) => ({
  mode: targets.length > 1 ? 'batch' : 'realtime',
  targets,
  template: { key: 'plain' },
});
const createCampaign = async (app: ReturnType<typeof makeTestApp>, name: string) => {
  const res = await call<Campaign>(app, 'POST', '/api/campaigns', { name, templateId: 'plain', deliveryMode: 'batch' });
  expect(res.status).toBe(200);
  return res.body.id as string;
};
const addRecipients = async (app: ReturnType<typeof makeTestApp>, id: string, userIds: string[]) =>
  expect((await call<AddRecipientsResult>(app, 'POST', `/api/campaigns/${id}/recipients`, { userIds })).status).toBe(
    200,
  );

describe('retention caps', () => {
  it('drops the oldest notifications and journal entries past their caps and counts them', async () => {
    const app = makeTestApp({ maxNotifications: 2, maxJournal: 3 });
    for (let i = 0; i < 5; i++) expect((await send(app, plain([`u${i}`]))).status).toBe(200);
    const notifications = (await call<NotificationPage>(app, 'GET', '/__inspect/notifications')).body;
    expect(notifications.total).toBe(2);
    const journal = (await call<JournalPage>(app, 'GET', '/__inspect/requests')).body;
    expect(journal.total).toBe(3);
    const health = (await call<Health>(app, 'GET', '/__health')).body;
    expect(health.retention).toEqual({
      deliveries: { stored: 5, max: 1_000_000, dropped: 0 },
      notifications: { stored: 2, max: 2, dropped: 3 },
      journal: { stored: 3, max: 3, dropped: 2 },
      campaigns: { stored: 0, max: 1_000, dropped: 0 },
      recipients: { stored: 0, max: 1_000_000, dropped: 0 },
      analyticsEvents: { stored: 0, max: 1_000_000, dropped: 0 },
      apps: { stored: 1, max: 10_000, dropped: 0 },
    });
  });

  it('remembers at most maxApps apps in open mode, forgetting the first seen, which may call again', async () => {
    const app = makeTestApp({ maxApps: 2 });
    const sendAs = async (appId: string) => (await send(app, plain(['u']), { appId })).status;
    const health = async () => (await call<Health>(app, 'GET', '/__health')).body;
    const listed = async () =>
      (await call<{ items: { appId: string }[] }>(app, 'GET', '/__apps')).body.items.map((a) => a.appId);
    expect([await sendAs('app-a'), await sendAs('app-b'), await sendAs('app-a')]).toEqual([200, 200, 200]);
    expect((await health()).retention.apps).toEqual({ stored: 2, max: 2, dropped: 0 }); // N
    expect(await sendAs('app-c')).toBe(200); // N + 1: app-a, seen first, is forgotten
    expect((await health()).retention.apps).toEqual({ stored: 2, max: 2, dropped: 1 });
    expect((await health()).apps).toBe(2);
    expect(await listed()).toEqual(['app-b', 'app-c']);
    // Its records stay, and a forgotten app calls again as before (and is remembered anew).
    expect((await call<{ total: number }>(app, 'GET', '/__inspect/deliveries?appId=app-a')).body.total).toBe(2);
    expect(await sendAs('app-a')).toBe(200);
    expect(await listed()).toEqual(['app-a', 'app-c']);
    expect((await health()).retention.apps).toEqual({ stored: 2, max: 2, dropped: 2 });
    await call(app, 'POST', '/__reset');
    expect((await health()).retention.apps).toEqual({ stored: 0, max: 2, dropped: 0 });
  });

  it('keeps at most maxAnalyticsEvents events, dropping the oldest, and records a dropped one afresh', async () => {
    const app = makeTestApp({ maxAnalyticsEvents: 2 });
    const { notificationId } = (await send(app, plain(['u0']))).body as { notificationId: string };
    const record = async (userId: string) =>
      (
        await call<{ eventId: string }>(app, 'POST', '/api/analytics/events', {
          campaignId: notificationId,
          userId,
          channelType: 'in_app',
          eventType: 'viewed',
        })
      ).body.eventId;
    const [first, second] = [await record('u1'), await record('u2')];
    expect(await record('u1')).toBe(first); // at the cap (N): kept, and found again
    const third = await record('u3'); // N + 1: the oldest goes
    const retention = async () => (await call<Health>(app, 'GET', '/__health')).body.retention.analyticsEvents;
    expect(await retention()).toEqual({ stored: 2, max: 2, dropped: 1 });
    expect([await record('u2'), await record('u3')]).toEqual([second, third]);
    const again = await record('u1'); // dropped, so recorded anew (and u2 goes)
    expect(again).not.toBe(first);
    expect(await retention()).toEqual({ stored: 2, max: 2, dropped: 2 });
    await call(app, 'POST', '/__reset');
    expect(await retention()).toEqual({ stored: 0, max: 2, dropped: 0 });
  });

  it('drops the oldest campaigns with their recipients past either cap, keeping scheduled ones', async () => {
    const app = makeTestApp({ maxCampaigns: 2, maxRecipients: 5, clock: manualClock() });
    const first = await createCampaign(app, 'first');
    await addRecipients(app, first, ['a1', 'a2']);
    const scheduled = await call<Campaign>(app, 'POST', `/api/campaigns/${first}/send`, {
      scheduledAt: '2030-06-01T00:00:00Z',
    });
    expect(scheduled.body.status).toBe('scheduled');
    const second = await createCampaign(app, 'second');
    await addRecipients(app, second, ['b1', 'b2']);
    const third = await createCampaign(app, 'third'); // 3 campaigns > 2: the oldest droppable (second) goes
    expect((await call<CampaignView>(app, 'GET', `/api/campaigns/${second}`)).status).toBe(404);
    await addRecipients(app, third, ['c1', 'c2', 'c3', 'c4']); // 6 recipients > 5, but only kept ones remain
    const health = (await call<Health>(app, 'GET', '/__health')).body;
    expect(health.retention.campaigns).toEqual({ stored: 2, max: 2, dropped: 1 });
    expect(health.retention.recipients).toEqual({ stored: 6, max: 5, dropped: 2 });
    expect((await call<CampaignView>(app, 'GET', `/api/campaigns/${first}`)).body.status).toBe('scheduled');
    expect((await call<RecipientPage>(app, 'GET', `/__inspect/campaigns/${third}/recipients`)).body.total).toBe(4);
  });

  it('drops only as many of the oldest campaigns as it takes to get back under each cap', async () => {
    const app = makeTestApp({ maxCampaigns: 3, maxRecipients: 5 });
    const ids = [];
    for (const name of ['one', 'two', 'three', 'four']) ids.push(await createCampaign(app, name));
    const kept = async () => {
      const list = (await call<CampaignView[]>(app, 'GET', '/api/campaigns')).body;
      return list.map((c) => c.name).sort();
    };
    expect(await kept()).toEqual(['four', 'three', 'two']);
    await addRecipients(app, ids[1]!, ['a1', 'a2']);
    await addRecipients(app, ids[2]!, ['b1', 'b2']);
    await addRecipients(app, ids[3]!, ['c1', 'c2']); // 6 > 5: "two" and its 2 go, and no more
    expect(await kept()).toEqual(['four', 'three']);
    expect((await call<Health>(app, 'GET', '/__health')).body.retention).toMatchObject({
      campaigns: { stored: 2, dropped: 2 },
      recipients: { stored: 4, dropped: 2 },
    });
  });

  it('takes each cap from a flag or an environment variable, refusing 0', () => {
    const flags = ['--max-notifications', '7', '--max-journal', '8', '--max-campaigns', '9', '--max-recipients', '10'];
    flags.push('--max-analytics-events', '11');
    expect(loadConfig(flags, {})).toMatchObject({
      options: { maxNotifications: 7, maxJournal: 8, maxCampaigns: 9, maxRecipients: 10, maxAnalyticsEvents: 11 },
    });
    const env = {
      EMULATOR_MAX_NOTIFICATIONS: '1',
      EMULATOR_MAX_JOURNAL: '2',
      EMULATOR_MAX_CAMPAIGNS: '3',
      EMULATOR_MAX_RECIPIENTS: '4',
      EMULATOR_MAX_ANALYTICS_EVENTS: '5',
    };
    expect(loadConfig([], env)).toMatchObject({
      options: { maxNotifications: 1, maxJournal: 2, maxCampaigns: 3, maxRecipients: 4, maxAnalyticsEvents: 5 },
    });
    expect(() => loadConfig(['--max-journal', '0'], {})).toThrow(/--max-journal/);
    expect(() => loadConfig([], { EMULATOR_MAX_RECIPIENTS: 'x' })).toThrow(/EMULATOR_MAX_RECIPIENTS/);
  });
});
