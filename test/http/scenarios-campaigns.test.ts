/**
 * Scenario faults on campaigns: failDelivery for campaign recipients (a campaign whose
 * recipients all fail ends failed), campaignId matching from the path and the upload form.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorApp, Delivery } from '../../src/index.js';
import { call, expectApiError, makeTestApp, callOk, type List } from '../helpers/app.js';
import { createCampaign, orderCsv, upload, waitForCampaignStatus } from '../helpers/campaigns.js';

let app: EmulatorApp;
afterEach(() => app?.close());

const ALL_FAIL = {
  name: 'blackout',
  rules: [
    { match: { templateKey: 'order-confirmation', campaignId: '*' }, fault: { failDelivery: 'push provider outage' } },
  ],
};
const SOME_FAIL = {
  name: 'flaky',
  rules: [{ match: { userId: 'user-9*' }, fault: { failDelivery: 'device unreachable' } }],
};

async function sendCampaign(users: string[], headers?: Record<string, string>) {
  const campaign = await createCampaign(app);
  expect((await upload(app, orderCsv(users), campaign.id)).status).toBe(200);
  expect((await call(app, 'POST', `/api/campaigns/${campaign.id}/send`, {}, { headers })).status).toBe(200);
  return campaign.id as string;
}

describe('scenarios on campaigns', () => {
  it('ends a campaign failed when a rule fails every recipient, recording the scenario on each delivery', async () => {
    app = makeTestApp({ scenarios: [ALL_FAIL], activeScenarios: ['blackout'] });
    const id = await sendCampaign(['user-1', 'user-2']);
    await waitForCampaignStatus(app, id, 'failed');
    const { body } = await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?campaignId=${id}`);
    expect(body.items.map((d) => [d.status, d.failureReason, d.scenario])).toEqual([
      ['failed', 'push provider outage', 'blackout'],
      ['failed', 'push provider outage', 'blackout'],
    ]);
  });

  it('fails only matching recipients and still ends the campaign sent', async () => {
    app = makeTestApp({ scenarios: [SOME_FAIL] });
    const id = await sendCampaign(['user-1', 'user-95'], { 'x-emulator-scenario': 'flaky' });
    await waitForCampaignStatus(app, id, 'sent');
    const { body } = await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?campaignId=${id}&status=failed`);
    expect(body.items.map((d) => d.userId)).toEqual(['user-95']);
  });

  it('matches campaignId from the send path and from the upload form field', async () => {
    app = makeTestApp();
    const campaign = await createCampaign(app);
    const scenario = {
      name: 'this-campaign',
      rules: [
        {
          match: { path: '/api/campaigns/upload', campaignId: campaign.id },
          fault: { error: 'ERR_OPERATION_FAILED' },
          times: 1,
        },
        {
          match: { path: '/api/campaigns/:id/send', campaignId: campaign.id },
          fault: { rateLimit: { retryAfterSec: 5 } },
        },
      ],
    };
    expect((await call(app, 'POST', '/__scenarios', scenario)).status).toBe(201);
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['this-campaign'] });
    expectApiError(await upload(app, orderCsv(['u1']), campaign.id), 500, 'ERR_OPERATION_FAILED');
    expect((await upload(app, orderCsv(['u1']), campaign.id)).status).toBe(200);
    expectApiError(await call(app, 'POST', `/api/campaigns/${campaign.id}/send`, {}), 429, 'ERR_TOO_MANY_REQUESTS');
    const other = await createCampaign(app);
    expect((await upload(app, orderCsv(['u1']), other.id)).status).toBe(200);
  });
});
