/**
 * The by-id inspect routes take `?appId=` (so a load balancer hashing on appId routes them to
 * the app's replica): the record of that app is found, another app's is a 404.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/index.js';
import { call, callOk, errorOf, expectApiError, makeTestApp, type List } from '../helpers/app.js';
import { createCampaign } from '../helpers/campaigns.js';

const app = makeTestApp({
  apps: [
    { appId: 'app-a', apiKey: 'key' },
    { appId: 'app-b', apiKey: 'key' },
  ],
});
afterAll(() => app.close());

describe('by-id inspect routes with ?appId=', () => {
  it('find the record of the app named, and answer 404 for another app', async () => {
    const campaign = await createCampaign(app, {}, { appId: 'app-a', apiKey: 'key' });
    const base = `/__inspect/campaigns/${campaign.id}`;
    expect((await callOk<{ id: string }>(app, 'GET', `${base}?appId=app-a`)).id).toBe(campaign.id);
    expect((await callOk<List<unknown>>(app, 'GET', `${base}/recipients?appId=app-a`)).total).toBe(0);
    for (const path of [`${base}?appId=app-b`, `${base}/recipients?appId=app-b`]) {
      const res = await call(app, 'GET', path);
      expectApiError(res, 404, 'ERR_NOT_FOUND');
      expect(errorOf(res).devMessage).toContain('app "app-b"');
    }
    const [entry] = (await callOk<List<JournalEntry>>(app, 'GET', '/__inspect/requests?appId=app-a')).items;
    expect((await callOk<JournalEntry>(app, 'GET', `/__inspect/requests/${entry!.id}?appId=app-a`)).id).toBe(entry!.id);
    expectApiError(await call(app, 'GET', `/__inspect/requests/${entry!.id}?appId=app-b`), 404, 'ERR_NOT_FOUND');
    // Without appId: any app's, as before; an app strict mode does not know: 404 naming it.
    expect((await callOk<{ id: string }>(app, 'GET', base)).id).toBe(campaign.id);
    const ghost = await call(app, 'GET', `${base}?appId=ghost`);
    expect(expectApiError(ghost, 404, 'ERR_NOT_FOUND').devMessage).toContain('"ghost"');
    expectApiError(await call(app, 'GET', `${base}?app=app-a`), 400, 'ERR_BAD_REQUEST');
  });
});
