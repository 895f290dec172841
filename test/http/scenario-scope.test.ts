/**
 * A request's scenario scope outlives the request only as plain data: a campaign scheduled
 * with an x-emulator-scenario header keeps its delivery-fault policy until the clock fires,
 * but not the request (nor the Hono context that holds it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorApp, Campaign, Delivery } from '../../src/index.js';
import { call, makeTestApp, manualClock, callOk, type List } from '../helpers/app.js';
import { createCampaign, orderCsv, upload, waitForCampaignStatus } from '../helpers/campaigns.js';
import { collectGarbage } from '../helpers/collect-garbage.js';

let app: EmulatorApp;
afterEach(() => app?.close());

const FLAKY = {
  name: 'flaky',
  rules: [{ match: { userId: 'user-9*' }, fault: { failDelivery: 'device unreachable' } }],
};

/** Sends the request from a Request this function creates, and returns only a weak reference to it. */
async function scheduleThroughRequest(campaignId: string): Promise<WeakRef<Request>> {
  const request = new Request(`http://localhost/api/campaigns/${campaignId}/send`, {
    method: 'POST',
    headers: {
      appid: 'app-test',
      apikey: 'key-test',
      'content-type': 'application/json',
      'x-emulator-scenario': 'flaky',
    },
    body: JSON.stringify({ scheduledAt: '2030-01-01T01:00:00Z' }),
  });
  const res = await app.request(request);
  expect(res.status, await res.text()).toBe(200);
  return new WeakRef(request);
}

describe('scenario request scope', () => {
  it('a scheduled campaign holds no request object, yet its header scenario still applies when it runs', async () => {
    app = makeTestApp({ scenarios: [FLAKY], clock: manualClock() });
    const campaign = await createCampaign(app);
    expect((await upload(app, orderCsv(['user-1', 'user-95']), campaign.id)).status).toBe(200);
    const request = await scheduleThroughRequest(campaign.id);

    for (let i = 0; i < 5 && request.deref() !== undefined; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      collectGarbage();
    }
    expect(request.deref(), 'the scheduled campaign keeps the request alive').toBeUndefined();

    expect((await call<Campaign>(app, 'GET', `/__inspect/campaigns/${campaign.id}`)).body.status).toBe('scheduled');
    await callOk(app, 'POST', '/__clock', { advanceMs: 3_600_000 });
    await waitForCampaignStatus(app, campaign.id, 'sent');
    const { body } = await call<List<Delivery>>(
      app,
      'GET',
      `/__inspect/deliveries?campaignId=${campaign.id}&status=failed`,
    );
    expect(body.items.map((d) => [d.userId, d.scenario])).toEqual([['user-95', 'flaky']]);
  });
});
