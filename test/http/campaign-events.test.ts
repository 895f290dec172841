/**
 * Every change to a campaign reaches the event bus (and so GET /__inspect/stream): status
 * changes, and also a draft's update, its recipients added by list and by CSV upload.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorEvent } from '../../src/domain/ports.js';
import type { EmulatorApp } from '../../src/app.js';
import { call, callOk, makeTestApp } from '../helpers/app.js';
import { createCampaign, orderCsv, upload } from '../helpers/campaigns.js';

let app: EmulatorApp | undefined;
afterEach(() => void app?.close());

function campaignEvents(emulatorApp: EmulatorApp) {
  const seen: EmulatorEvent[] = [];
  emulatorApp.emulator.events.subscribe((e) => seen.push(e));
  return () => seen.flatMap((e) => (e.type === 'campaign' ? [e.campaign] : []));
}

describe('campaign events', () => {
  it('tells the stream about an update and about recipients added by list and by CSV', async () => {
    app = makeTestApp();
    const campaign = await createCampaign(app);
    const events = campaignEvents(app);
    await callOk(app, 'PUT', `/api/campaigns/${campaign.id}`, { name: 'Renamed' });
    await callOk(app, 'POST', `/api/campaigns/${campaign.id}/recipients`, { userIds: ['u1', 'u2'] });
    const uploaded = await upload(app, orderCsv(['u3', 'u4', 'u5']), campaign.id);
    expect(uploaded.status).toBe(200);
    expect(events().map((c) => [c.id, c.name, c.status, c.recipientCount])).toEqual([
      [campaign.id, 'Renamed', 'draft', 0],
      [campaign.id, 'Renamed', 'draft', 2],
      [campaign.id, 'Renamed', 'draft', 5],
    ]);
  });

  it('tells the stream about a new campaign', async () => {
    app = makeTestApp();
    const events = campaignEvents(app);
    const campaign = await createCampaign(app);
    expect(events().map((c) => [c.id, c.status, c.recipientCount])).toEqual([[campaign.id, 'draft', 0]]);
  });

  it('emits nothing for a refused update or upload', async () => {
    app = makeTestApp();
    const campaign = await createCampaign(app);
    const events = campaignEvents(app);
    const bad = await upload(app, 'customerName,cta\nAda,x', campaign.id);
    expect(bad.status).toBe(400);
    expect((await call(app, 'PUT', `/api/campaigns/${campaign.id}`, { name: 5 })).status).toBe(400);
    expect(events()).toEqual([]);
  });
});
