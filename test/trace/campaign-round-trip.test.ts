/**
 * A real 100,000-recipient campaign exported and imported: every view (its first pages: the
 * whole lists are the model test's), the last pages and a lookup by user answer the same.
 */
import { expect, it } from 'vitest';
import type { Campaign } from '../../src/index.js';
import { call, callOk, makeTestApp, manualClock } from '../helpers/app.js';
import { createCampaign, upload, waitForCampaignStatus } from '../helpers/campaigns.js';
import { exportText, observe } from './observe.js';

it('round-trips a 100,000-recipient campaign', async () => {
  const app = makeTestApp({ clock: manualClock(), scenarios: [] });
  // One variable, one channel: every recipient's content is still rendered, at half the cost of order-confirmation.
  const c = await createCampaign(app, { templateId: 'greeting' });
  const rows = ['user_id,name'];
  for (let i = 0; i < 100_000; i++) rows.push(`user-${i},Customer ${i}`);
  expect((await upload(app, rows.join('\n'), c.id)).status).toBe(200);
  await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {});
  await waitForCampaignStatus(app, c.id, 'sent', 60_000);
  const lastPages = async (target: typeof app) => [
    (await call(target, 'GET', `/__inspect/deliveries?limit=5&offset=99995`)).body,
    (await call(target, 'GET', `/__inspect/campaigns/${c.id}/recipients?limit=5&offset=99995`)).body,
    (await call(target, 'GET', `/__inspect/deliveries?userId=user-77777`)).body,
  ];
  const before = { views: await observe(app, 50), last: await lastPages(app) };
  const trace = await exportText(app, '', { unchecked: true });
  const copy = makeTestApp({ clock: manualClock('2035-01-01T00:00:00Z'), scenarios: [] });
  const res = await call(copy, 'POST', '/__import', undefined, { raw: trace });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  expect({ views: await observe(copy, 50), last: await lastPages(copy) }).toEqual(before);
}, 120_000);
