import { describe, expect, it } from 'vitest';
import { createMemoryStore, type Recipient, type Campaign } from '../../src/index.js';
import { expectApiError, makeTestApp, callOk, type List, errorOf, call } from '../helpers/app.js';
import { createCampaign, CTA_CELL, orderCsv, upload } from '../helpers/campaigns.js';

describe('POST /api/campaigns/upload', () => {
  it('adds one pending recipient per valid row with its variables, answering the contract fields', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const csv = `user_id,customerName,cta\r\nu1,"Ann, Jr.",${CTA_CELL}\r\nu2,Bob,${CTA_CELL}\r\n`;
    const res = await upload(app, csv, c.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ recipientsAdded: 2, uploaded: 2, total: 2, campaignId: c.id, skipped: 0, errors: [] });
    const recipients = (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients`)).body;
    expect(recipients.total).toBe(2);
    expect(recipients.items[0]).toMatchObject({
      userId: 'u1',
      status: 'pending',
      campaignId: c.id,
      appId: 'app-test',
      variables: { customerName: 'Ann, Jr.', cta: { type: 'web', data: 'https://shop.example/track' } },
    });
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body.recipientCount).toBe(2);
  });

  it('skips duplicates (in the file and already on the campaign) as row errors, counting the total', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    await callOk<{ added: number; total: number }>(app, 'POST', `/api/campaigns/${c.id}/recipients`, {
      userIds: ['u0'],
    });
    const res = await upload(app, orderCsv(['u1', 'u0', 'u2', 'u1']), c.id);
    expect(res.body).toEqual({
      recipientsAdded: 2,
      uploaded: 2,
      total: 3,
      campaignId: c.id,
      skipped: 2,
      errors: [
        { row: 3, reason: 'duplicate user_id' },
        { row: 5, reason: 'duplicate user_id' },
      ],
    });
  });

  it('refuses image/action cells nested deeper than request bodies may be, as row errors (64 ok, 65 not)', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    // Built as text: JSON.stringify itself would overflow on 10,000 levels.
    const nested = (levels: number) =>
      `{"type":"web","data":"https://shop.example","extra":${'{"x":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}}`;
    const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
    const csv = [
      'user_id,customerName,cta',
      `u1,Ann,${quote(nested(64))}`,
      `u2,Bob,${quote(nested(65))}`,
      `u3,Cid,${quote(nested(10_000))}`,
    ].join('\n');
    const res = await upload(app, csv, c.id);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body).toMatchObject({ recipientsAdded: 1, skipped: 2 });
    expect(res.body.errors).toEqual([
      { row: 3, reason: 'column cta: JSON nested more than 64 levels deep' },
      { row: 4, reason: 'column cta: JSON nested more than 64 levels deep' },
    ]);
    // Every answer that serialises the recipients still works.
    expect((await call(app, 'GET', `/api/campaigns/${c.id}/recipients`)).status).toBe(200);
    expect((await call(app, 'GET', `/__inspect/campaigns/${c.id}/recipients`)).status).toBe(200);
  });

  it('skips row-level problems with spreadsheet row numbers and still succeeds', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const csv = [
      'user_id,customerName,cta',
      `u1,Ann,${CTA_CELL}`,
      `,NoId,${CTA_CELL}`,
      'u3,Bad JSON,{oops',
      `u4,,${CTA_CELL}`,
    ].join('\n');
    const res = await upload(app, csv, c.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ recipientsAdded: 1, total: 1, skipped: 3 });
    expect(res.body.errors.map((e) => e.row)).toEqual([3, 4, 5]);
    for (const error of res.body.errors) expect(error.reason).toEqual(expect.any(String));
  });

  it('lists at most 100 row errors but counts every skipped row', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const csv = ['user_id,customerName,cta', ...Array.from({ length: 150 }, () => `u1,Ann,${CTA_CELL}`)].join('\n');
    const res = await upload(app, csv, c.id);
    expect(res.body).toMatchObject({ recipientsAdded: 1, skipped: 149 });
    expect(res.body.errors).toHaveLength(100);
    expect(res.body.errors[0]).toEqual({ row: 3, reason: 'duplicate user_id' });
  });

  it('accepts the userId alias and a CSV sent as a text field', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app, { templateId: 'plain' });
    const form = new FormData();
    form.append('file', 'userId\nu1\nu2\n');
    form.append('campaignId', c.id);
    const res = await call(app, 'POST', '/api/campaigns/upload', undefined, { raw: form });
    expect(res.body).toMatchObject({ recipientsAdded: 2, total: 2 });
  });

  it('answers 400 and adds nothing for a file-level problem (no user_id column)', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const res = await upload(app, `customerName,cta\nAnn,${CTA_CELL}`, c.id);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect((await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients`)).body.total).toBe(0);
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body.recipientCount).toBe(0);
  });

  it('answers 400 and adds nothing for more than 100,000 data rows', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app, { templateId: 'plain' });
    let csv = 'user_id\n';
    for (let i = 0; i <= 100_000; i++) csv += `u${i}\n`;
    const res = await upload(app, csv, c.id);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(
      (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients?limit=1`)).body.total,
    ).toBe(0);
  });

  it('answers 400 naming both fields for a JSON body instead of multipart', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const res = await call(app, 'POST', '/api/campaigns/upload', { campaignId: c.id, file: 'user_id\nu1' });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toMatchObject({
      'content-type': expect.any(String),
      file: expect.any(String),
      campaignId: expect.any(String),
    });
  });

  it('answers 400 naming the missing field: file, campaignId, or both', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const noFile = await upload(app, null, c.id);
    expectApiError(noFile, 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(errorOf(noFile).details)).toEqual(['file']);
    const noId = await upload(app, orderCsv(['u1']), null);
    expect(Object.keys(errorOf(noId).details)).toEqual(['campaignId']);
    const neither = await upload(app, null, null);
    expect(errorOf(neither).details).toEqual({
      campaignId: 'is required: the id of a draft campaign',
      file: 'is required: the CSV file as a multipart file part',
    });
    expect(errorOf(neither).devMessage).toMatch(/^Invalid upload form: campaignId: is required.*; file: is required/);
    // A campaignId of spaces only is as good as none.
    const blankId = await upload(app, orderCsv(['u1']), '   ');
    expect(errorOf(blankId).details).toEqual({ campaignId: 'is required: the id of a draft campaign' });
  });

  it("answers 404 for an unknown campaign and for another app's campaign", async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    expectApiError(await upload(app, orderCsv(['u1']), 'ffffffffffffffffffffffff'), 404, 'ERR_NOT_FOUND');
    expectApiError(await upload(app, orderCsv(['u1']), c.id, { appId: 'app-other' }), 404, 'ERR_NOT_FOUND');
    expect((await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients`)).body.total).toBe(0);
  });

  it('answers 400 for a campaign that is no longer a draft, adding nothing', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    expect((await upload(app, orderCsv(['u1']), c.id)).status).toBe(200);
    await callOk<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {});
    const res = await upload(app, orderCsv(['u2']), c.id);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details.status).toMatch(/must be "draft"/);
    expect(errorOf(res).devMessage).toMatch(/; a CSV upload needs a campaign in "draft" status\.$/);
    expect((await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients`)).body.total).toBe(1);
  });

  it('answers 500 ERR_OPERATION_FAILED when storing the recipients fails unexpectedly, adding nothing', async () => {
    const store = createMemoryStore();
    const app = makeTestApp({
      store: {
        ...store,
        addRecipients: () => {
          throw new Error('disk on fire');
        },
      },
    });
    const c = await createCampaign(app);
    const res = await upload(app, orderCsv(['u1', 'u2']), c.id);
    expectApiError(res, 500, 'ERR_OPERATION_FAILED');
    expect(errorOf(res).devMessage).toMatch(/Recipient creation failed: disk on fire/);
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body.recipientCount).toBe(0);
    expect(store.recipients(c.id)).toHaveLength(0);
  });

  it('answers 500 ERR_OPERATION_FAILED naming the reading of the file when the store fails meanwhile', async () => {
    const store = createMemoryStore();
    const app = makeTestApp({
      store: {
        ...store,
        hasRecipient: (campaignId, userId) => {
          if (userId === 'u-boom') throw new Error('disk on fire');
          return store.hasRecipient(campaignId, userId);
        },
      },
    });
    const c = await createCampaign(app);
    await callOk(app, 'POST', `/api/campaigns/${c.id}/recipients`, { userIds: ['u1'] });
    const res = await upload(app, orderCsv(['u2', 'u-boom']), c.id);
    expectApiError(res, 500, 'ERR_OPERATION_FAILED');
    expect(errorOf(res).devMessage).toBe('CSV parsing failed: disk on fire. Nothing was added; retry the upload.');
    expect(store.recipients(c.id)).toHaveLength(1);
  });

  it('answers 413 ERR_PAYLOAD_TOO_LARGE past the upload limit', async () => {
    const app = makeTestApp({ uploadLimitBytes: 1024 });
    const c = await createCampaign(app);
    expectApiError(
      await upload(app, orderCsv(Array.from({ length: 100 }, (_, i) => `user-${i}`)), c.id),
      413,
      'ERR_PAYLOAD_TOO_LARGE',
    );
  });
});
