/**
 * The inspect lists that keep their last answers (src/reads/answer-memo.ts) never answer from
 * before a write: after each kind of write that changes a list, and after the template
 * catalog was reloaded, the same URL shows the change.
 */
import { describe, expect, it } from 'vitest';
import { call, callOk, makeTestApp, sendOk, type List } from '../helpers/app.js';
import type { DeliveryStats } from '../helpers/api-types.js';
import { createCampaign } from '../helpers/campaigns.js';

const realtime = (user: string) => ({ template: { key: 'plain' }, targets: [user], mode: 'realtime' });

describe('inspect lists kept between writes', () => {
  it('show each send, journal entry and recipient as soon as it is stored', async () => {
    const app = makeTestApp();
    const now = Date.parse((await callOk<{ now: string }>(app, 'GET', '/__clock')).now);
    const day = 86_400_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const range = `since=${iso(now - day)}&until=${iso(now + day)}&bucketMs=${day}`;
    const lists = {
      deliveries: '/__inspect/deliveries?appId=app-test',
      notifications: '/__inspect/notifications?appId=app-test',
      requests: '/__inspect/requests?appId=app-test',
      requestsByBody: '/__inspect/requests?bodyContains=user-',
    };
    const totals = async () =>
      Object.fromEntries(
        await Promise.all(
          Object.entries(lists).map(async ([name, path]) => [
            name,
            (await call<List<unknown>>(app, 'GET', path)).body.total,
          ]),
        ),
      );
    const sentInRange = async () =>
      (await call<DeliveryStats>(app, 'GET', `/__inspect/delivery-stats?${range}`)).body.totals.sent;
    expect(await totals()).toEqual({ deliveries: 0, notifications: 0, requests: 0, requestsByBody: 0 });
    expect(await sentInRange()).toBe(0);
    for (let n = 1; n <= 3; n++) {
      await sendOk(app, realtime(`user-${n}`));
      expect(await totals()).toEqual({ deliveries: n, notifications: n, requests: n, requestsByBody: n });
      expect(await totals()).toEqual({ deliveries: n, notifications: n, requests: n, requestsByBody: n });
      expect(await sentInRange()).toBe(n);
    }
    await callOk(app, 'DELETE', '/__inspect?appId=app-test');
    expect(await totals()).toEqual({ deliveries: 0, notifications: 0, requests: 0, requestsByBody: 0 });
    expect(await sentInRange()).toBe(0);
  });

  it("show a campaign's recipients as they are added and sent", async () => {
    const app = makeTestApp();
    const campaign = await createCampaign(app, { name: 'Kept', templateId: 'plain' }, { appId: 'app-test' });
    const page = `/__inspect/campaigns/${campaign.id}/recipients`;
    expect((await call<List<unknown>>(app, 'GET', page)).body.total).toBe(0);
    for (const userIds of [['u1'], ['u2', 'u3']]) {
      await callOk(app, 'POST', `/api/campaigns/${campaign.id}/recipients`, { userIds }, { appId: 'app-test' });
      const { total } = (await call<List<unknown>>(app, 'GET', page)).body;
      expect(total).toBe(userIds.length === 1 ? 1 : 3);
    }
  });

  it("show a campaign's template as the catalog has it now, after the fixtures were reloaded", async () => {
    const app = makeTestApp();
    const campaign = await createCampaign(
      app,
      { name: 'Renamed template', templateId: 'plain' },
      { appId: 'app-test' },
    );
    const names = async () => [
      (await call<List<{ templateName: string }>>(app, 'GET', '/__inspect/campaigns')).body.items[0]!.templateName,
      (await call<{ templateName: string }>(app, 'GET', `/__inspect/campaigns/${campaign.id}`)).body.templateName,
    ];
    expect(await names()).toEqual(['Plain', 'Plain']);
    expect(await names()).toEqual(['Plain', 'Plain']);
    const { templates } = app.emulator;
    templates.replaceFixtures(templates.list().map((t) => (t.key === 'plain' ? { ...t, name: 'Plain, renamed' } : t)));
    expect(await names()).toEqual(['Plain, renamed', 'Plain, renamed']);
  });
});
