/**
 * /__inspect/campaigns names each campaign's template key and remembers its last accepted CSV
 * upload (what it added, what it skipped and why), for the web inspector's campaign page; the
 * public API answers as before.
 */
import { describe, expect, it } from 'vitest';
import { call, expectApiError, makeTestApp, type List } from '../helpers/app.js';
import { createCampaign, CTA_CELL, orderCsv, upload } from '../helpers/campaigns.js';
import { createMemoryStore } from '../../src/index.js';
import type { InspectCampaign } from '../../src/index.js';

const CSV_WITH_SKIPS = [
  'user_id,customerName,cta',
  `u1,Ann,${CTA_CELL}`,
  `,NoId,${CTA_CELL}`,
  `u1,Ann,${CTA_CELL}`,
].join('\n');

describe('/__inspect/campaigns: the last CSV upload', () => {
  it('is null before an upload, then the upload summary with the skipped rows and their reasons', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const before = (await call<InspectCampaign>(app, 'GET', `/__inspect/campaigns/${c.id}`)).body;
    expect(before).toMatchObject({ templateName: 'Order Confirmation', templateKey: 'order-confirmation' });
    expect(before.lastUpload).toBeNull();
    const answer = (await upload(app, CSV_WITH_SKIPS, c.id)).body;
    const inspected = (await call<InspectCampaign>(app, 'GET', `/__inspect/campaigns/${c.id}`)).body;
    expect(inspected.lastUpload).toEqual({
      campaignId: c.id,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      uploaded: 1,
      skipped: 2,
      errors: answer.errors,
    });
    expect(inspected.lastUpload!.errors.map((e) => e.row)).toEqual([3, 4]);
    expect(inspected.lastUpload!.errors[1]).toEqual({ row: 4, reason: 'duplicate user_id' });
    // the list answers it too
    const page = (await call<List<InspectCampaign>>(app, 'GET', '/__inspect/campaigns')).body;
    expect(page.items[0]!.lastUpload).toEqual(inspected.lastUpload);
  });

  it('is replaced by the next accepted upload and kept through a refused one', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    await upload(app, CSV_WITH_SKIPS, c.id);
    await upload(app, orderCsv(['u2', 'u3']), c.id);
    const second = (await call<InspectCampaign>(app, 'GET', `/__inspect/campaigns/${c.id}`)).body.lastUpload;
    expect(second).toMatchObject({ uploaded: 2, skipped: 0, errors: [] });
    expectApiError(await upload(app, `customerName,cta\nAnn,${CTA_CELL}`, c.id), 400, 'ERR_BAD_REQUEST');
    expect((await call<InspectCampaign>(app, 'GET', `/__inspect/campaigns/${c.id}`)).body.lastUpload).toEqual(second);
  });

  it('stays out of the public API answers', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    await upload(app, CSV_WITH_SKIPS, c.id);
    const own = (await call<Record<string, unknown>>(app, 'GET', `/api/campaigns/${c.id}`)).body;
    expect(own).not.toHaveProperty('lastUpload');
    const list = (await call<Record<string, unknown>[]>(app, 'GET', '/api/campaigns')).body;
    expect(list[0]).not.toHaveProperty('lastUpload');
  });

  it('goes with its campaign: cleared with the app, kept in the store snapshot (the data file)', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    await upload(app, CSV_WITH_SKIPS, c.id);
    expect((await call(app, 'DELETE', '/__inspect')).status).toBe(200);
    const again = await createCampaign(app);
    expect((await call<InspectCampaign>(app, 'GET', `/__inspect/campaigns/${again.id}`)).body.lastUpload).toBeNull();

    const store = createMemoryStore();
    store.addCampaign({ ...c });
    const summary = { campaignId: c.id, at: c.createdAt, uploaded: 1, skipped: 0, errors: [] };
    store.setLastUpload(summary);
    store.setLastUpload({ ...summary, campaignId: 'no-such-campaign' });
    expect(store.snapshot().campaignUploads).toEqual([summary]);
    const reopened = createMemoryStore({ initial: store.snapshot() });
    expect(reopened.lastUpload(c.id)).toEqual(summary);
  });
});
