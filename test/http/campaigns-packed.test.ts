/**
 * A campaign whose recipients the store has already sealed into columns (a turn of the
 * event loop after the upload): every read and the send itself see them as they were
 * uploaded, variables included, and the deliveries render from them.
 */
import { describe, expect, it } from 'vitest';
import type { Campaign, Delivery, Recipient } from '../../src/index.js';
import { call, makeTestApp, type List } from '../helpers/app.js';
import { createCampaign, orderCsv, upload, waitForCampaignStatus } from '../helpers/campaigns.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('a campaign sent from sealed recipients', () => {
  it('lists, sends and renders them as uploaded', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    expect((await upload(app, orderCsv(['u1', 'u2', 'u3']), c.id)).body.recipientsAdded).toBe(3);
    await turn();
    await turn();
    const listed = (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients?order=desc`)).body;
    expect(listed.items.map((r) => [r.userId, r.status, r.variables])).toEqual(
      ['u3', 'u2', 'u1'].map((u) => [u, 'pending', { customerName: `Name ${u}`, cta: expect.any(Object) }]),
    );
    expect((await call<Campaign>(app, 'POST', `/api/campaigns/${c.id}/send`, {})).body.status).toBe('sending');
    const deliveries = (await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?campaignId=${c.id}&waitFor=3`))
      .body;
    expect(deliveries.items.map((d) => d.rendered.in_app)).toEqual(
      ['u1', 'u2', 'u3'].map((u) =>
        expect.objectContaining({ title: `Hi Name ${u}`, button: 'https://shop.example/track' }),
      ),
    );
    expect(deliveries.items[2]!.variables).toEqual(listed.items[0]!.variables);
    await waitForCampaignStatus(app, c.id, 'sent');
    const sent = (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients?status=sent`)).body;
    expect(sent.items.map((r) => r.deliveryId)).toEqual(deliveries.items.map((d) => d.id));
  });
});
