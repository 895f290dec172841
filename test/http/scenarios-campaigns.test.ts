/**
 * Scenario faults on campaigns: failDelivery for campaign recipients (a campaign whose
 * recipients all fail ends failed), the rules that failed them on the send's journal entry,
 * campaignId matching from the path and the upload form.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, type EmulatorApp, type Delivery } from '../../src/index.js';
import { call, expectApiError, makeTestApp, manualClock, callOk, type List } from '../helpers/app.js';
import type { JournalEntry, JournalPage } from '../helpers/api-types.js';
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

async function sendCampaign(users: string[], headers?: Record<string, string>, body: object = {}) {
  const campaign = await createCampaign(app);
  expect((await upload(app, orderCsv(users), campaign.id)).status).toBe(200);
  expect((await call(app, 'POST', `/api/campaigns/${campaign.id}/send`, body, { headers })).status).toBe(200);
  return campaign.id as string;
}

const journal = async (query: string) => (await callOk<JournalPage>(app, 'GET', `/__inspect/requests?${query}`)).items;
const sendEntryOf = async (id: string): Promise<JournalEntry> => {
  const [entry, ...more] = await journal(`path=/api/campaigns/${id}/send`);
  expect(more).toEqual([]);
  return entry!;
};

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

  it("records the rules that failed a campaign's deliveries on its send's journal entry, each once", async () => {
    app = makeTestApp({ scenarios: [SOME_FAIL, ALL_FAIL] });
    const id = await sendCampaign(['user-1', 'user-91', 'user-92'], { 'x-emulator-scenario': 'flaky' });
    await waitForCampaignStatus(app, id, 'sent');
    const entry = await sendEntryOf(id);
    expect(entry).toMatchObject({
      status: 200,
      scenario: 'flaky',
      rule: expect.stringMatching(/^rule 1: user "user-9\*"/),
    });
    expect(entry.rules).toEqual([{ scenario: 'flaky', index: 1, rule: entry.rule }]);
    expect((await journal('scenario=flaky')).map((e) => e.id)).toEqual([entry.id]);
    expect(await journal('scenario=blackout')).toEqual([]);
    expect((await callOk<JournalEntry>(app, 'GET', `/__inspect/requests/${entry.id}`)).rules).toEqual(entry.rules);
    // A campaign no rule failed keeps an entry without rules.
    const clean = await sendCampaign(['user-1'], { 'x-emulator-scenario': 'flaky' });
    await waitForCampaignStatus(app, clean, 'sent');
    expect(await sendEntryOf(clean)).toMatchObject({ rules: [], scenario: null, rule: null });
  });

  it("adds the rules to a scheduled send's entry when it runs, under a scenario active then", async () => {
    app = makeTestApp({ scenarios: [ALL_FAIL], clock: manualClock() });
    const id = await sendCampaign(['user-1', 'user-2'], undefined, { scheduledAt: '2030-01-01T01:00:00Z' });
    expect(await sendEntryOf(id)).toMatchObject({ rules: [], scenario: null });
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['blackout'] });
    await callOk(app, 'POST', '/__clock', { advanceMs: 3_600_000 });
    await waitForCampaignStatus(app, id, 'failed');
    const entry = await sendEntryOf(id);
    expect(entry.rules).toEqual([
      { scenario: 'blackout', index: 1, rule: expect.stringContaining('push provider outage') },
    ]);
    expect(entry).toMatchObject({ scenario: 'blackout', rule: entry.rules[0]!.rule });
    expect((await journal('scenario=blackout')).map((e) => e.path)).toEqual([`/api/campaigns/${id}/send`]);
  });

  it('keeps the request rule that answered a send first, then the delivery rules (full base path)', async () => {
    const slow = { name: 'slow', rules: [{ match: { path: '/api/campaigns/:id/send' }, fault: { delayMs: 1 } }] };
    app = makeTestApp({ scenarios: [ALL_FAIL, slow], activeScenarios: ['blackout', 'slow'] });
    const campaign = await createCampaign(app);
    expect((await upload(app, orderCsv(['user-1']), campaign.id)).status).toBe(200);
    const full = `/v3/business-messaging/api/campaigns/${campaign.id}/send`;
    expect((await call(app, 'POST', full, {})).status).toBe(200);
    await waitForCampaignStatus(app, campaign.id, 'failed');
    const entry = await sendEntryOf(campaign.id);
    expect(entry.path).toBe(full);
    expect(entry.rules.map((r) => [r.scenario, r.index])).toEqual([
      ['slow', 1],
      ['blackout', 1],
    ]);
    expect(entry.scenario).toBe('blackout');
  });

  it("fails a resumed campaign's deliveries under its app's own active scenario", async () => {
    const first = makeTestApp({ scenarios: [ALL_FAIL], clock: manualClock() });
    await callOk(first, 'PUT', '/__scenarios/active?appId=app-a', { names: ['blackout'] });
    const campaign = await createCampaign(first, {}, { appId: 'app-a' });
    expect((await upload(first, orderCsv(['user-1', 'user-2']), campaign.id, { appId: 'app-a' })).status).toBe(200);
    const data = (first.emulator.store as ReturnType<typeof createMemoryStore>).snapshot();
    await first.close();
    // Saved in the middle of sending: an emulator started on this data resumes the send.
    data.campaigns = data.campaigns.map((c) => (c.id === campaign.id ? { ...c, status: 'sending' } : c));
    app = makeTestApp({ scenarios: [ALL_FAIL], clock: manualClock(), store: createMemoryStore({ initial: data }) });
    await waitForCampaignStatus(app, campaign.id, ['sent', 'failed']);
    const { body } = await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?campaignId=${campaign.id}`);
    expect(body.items.map((d) => [d.status, d.scenario])).toEqual([
      ['failed', 'blackout'],
      ['failed', 'blackout'],
    ]);
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
