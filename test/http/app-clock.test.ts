/**
 * An app's own clock (`/__clock?appId=`): it starts at the shared clock's instant, moves
 * alone, stamps the app's records, fires the app's scheduled campaigns, and goes back to the
 * shared clock on DELETE or a reset of the app.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Campaign, ClockState, EmulatorApp, JournalEntry } from '../../src/index.js';
import { call, callOk, expectApiError, makeTestApp, manualClock, sendOk, type List } from '../helpers/app.js';
import { createCampaign, orderCsv, upload, waitForCampaignStatus } from '../helpers/campaigns.js';

let app: EmulatorApp;
afterEach(() => app?.close());

const clockOf = (appId: string) => callOk<ClockState>(app, 'GET', `/__clock?appId=${appId}`);

/** A campaign of `appId` with two recipients, scheduled for `at`. */
async function scheduled(appId: string, at: string): Promise<Campaign> {
  const campaign = await createCampaign(app, {}, { appId });
  expect((await upload(app, orderCsv(['u1', 'u2']), campaign.id, { appId })).status).toBe(200);
  return callOk<Campaign>(app, 'POST', `/api/campaigns/${campaign.id}/send`, { scheduledAt: at }, { appId });
}

describe('/__clock?appId=', () => {
  it('an app follows the shared clock until it gets its own, which starts at the shared instant', async () => {
    app = makeTestApp({ clock: manualClock() });
    expect(await clockOf('app-a')).toEqual({
      now: '2030-01-01T00:00:00.000Z',
      mode: 'manual',
      appId: 'app-a',
      scope: 'shared',
    });
    const moved = await callOk<ClockState>(app, 'POST', '/__clock?appId=app-a', { advanceMs: 60_000 });
    expect(moved).toEqual({ now: '2030-01-01T00:01:00.000Z', mode: 'manual', appId: 'app-a', scope: 'app' });
    // Nobody else moved.
    expect((await callOk<ClockState>(app, 'GET', '/__clock')).now).toBe('2030-01-01T00:00:00.000Z');
    expect((await clockOf('app-b')).now).toBe('2030-01-01T00:00:00.000Z');
    // The shared clock moves every app without a clock of its own, not app-a.
    await callOk(app, 'POST', '/__clock', { advanceMs: 1_000 });
    expect((await clockOf('app-b')).now).toBe('2030-01-01T00:00:01.000Z');
    expect((await clockOf('app-a')).now).toBe('2030-01-01T00:01:00.000Z');
    // DELETE: back on the shared clock.
    const back = await callOk<ClockState>(app, 'DELETE', '/__clock?appId=app-a');
    expect(back).toMatchObject({ now: '2030-01-01T00:00:01.000Z', scope: 'shared' });
  });

  it("stamps the app's records and journal with its own time", async () => {
    app = makeTestApp({ clock: manualClock() });
    await callOk(app, 'POST', '/__clock?appId=app-a', { now: '2031-02-03T04:05:06Z' });
    const mine = await sendOk(app, { template: { key: 'plain' }, targets: ['u1'], mode: 'batch' }, { appId: 'app-a' });
    const theirs = await sendOk(
      app,
      { template: { key: 'plain' }, targets: ['u1'], mode: 'batch' },
      { appId: 'app-b' },
    );
    expect(mine.createdAt).toBe('2031-02-03T04:05:06.000Z');
    expect(theirs.createdAt).toBe('2030-01-01T00:00:00.000Z');
    const campaign = await createCampaign(app, {}, { appId: 'app-a' });
    expect(campaign.createdAt).toBe('2031-02-03T04:05:06.000Z');
    const journal = await callOk<List<JournalEntry>>(app, 'GET', '/__inspect/requests?appId=app-a');
    expect(journal.items.map((e) => e.time)).toContain('2031-02-03T04:05:06.000Z');
    // since/until of an app's query are instants on its clock: its records are found there.
    const since = await callOk<List<JournalEntry>>(
      app,
      'GET',
      '/__inspect/requests?appId=app-a&since=2031-01-01T00:00:00Z',
    );
    expect(since.total).toBe(journal.total);
  });

  it("fires an app's scheduled campaign when its own clock reaches it, and no other app's", async () => {
    app = makeTestApp({ clock: manualClock() });
    const a = await scheduled('app-a', '2030-01-01T01:00:00Z');
    const b = await scheduled('app-b', '2030-01-01T01:00:00Z');
    await callOk(app, 'POST', '/__clock?appId=app-a', { advanceMs: 3_600_000 });
    await waitForCampaignStatus(app, a.id, 'sent');
    const other = await callOk<Campaign>(app, 'GET', `/__inspect/campaigns/${b.id}`);
    expect(other.status).toBe('scheduled');
  });

  it('a scheduled campaign moves with its app between the shared clock and its own', async () => {
    app = makeTestApp({ clock: manualClock() });
    // Scheduled while app-a follows the shared clock, then app-a gets its own: the shared clock no longer fires it.
    const a = await scheduled('app-a', '2030-01-01T01:00:00Z');
    await callOk(app, 'POST', '/__clock?appId=app-a', { advanceMs: 1 });
    await callOk(app, 'POST', '/__clock', { advanceMs: 7_200_000 });
    expect((await callOk<Campaign>(app, 'GET', `/__inspect/campaigns/${a.id}`)).status).toBe('scheduled');
    // Back on the shared clock (now past the instant): the next move of the shared clock fires it.
    await callOk(app, 'DELETE', '/__clock?appId=app-a');
    await callOk(app, 'POST', '/__clock', { advanceMs: 1 });
    await waitForCampaignStatus(app, a.id, 'sent');
  });

  it('POST /__reset?appId= returns the app to the shared clock; POST /__reset returns every app', async () => {
    app = makeTestApp({ clock: manualClock() });
    await callOk(app, 'POST', '/__clock?appId=app-a', { advanceMs: 5 });
    await callOk(app, 'POST', '/__clock?appId=app-b', { advanceMs: 5 });
    await callOk(app, 'POST', '/__reset?appId=app-a');
    expect((await clockOf('app-a')).scope).toBe('shared');
    expect((await clockOf('app-b')).scope).toBe('app');
    await callOk(app, 'POST', '/__reset');
    expect((await clockOf('app-b')).scope).toBe('shared');
  });

  it('refuses an empty appId on a write, a DELETE without one, and bad bodies (the clock unchanged)', async () => {
    app = makeTestApp({ clock: manualClock() });
    const empty = expectApiError(await call(app, 'POST', '/__clock?appId=', { advanceMs: 1 }), 400, 'ERR_BAD_REQUEST');
    expect(empty.details).toEqual({ appId: 'must not be empty' });
    expect(expectApiError(await call(app, 'DELETE', '/__clock'), 400, 'ERR_BAD_REQUEST').details).toEqual({
      appId: 'is required',
    });
    expectApiError(await call(app, 'POST', '/__clock?appId=app-a', { advanceMs: -1 }), 400, 'ERR_BAD_REQUEST');
    expectApiError(await call(app, 'GET', '/__clock?app=app-a'), 400, 'ERR_BAD_REQUEST');
    expect((await clockOf('app-a')).scope).toBe('shared');
    expect((await clockOf('')).scope).toBeUndefined(); // an empty appId on a read means no app: the shared clock
  });

  it('strict mode: an app that is not configured is a 404 naming it; open mode remembers the app', async () => {
    app = makeTestApp({ clock: manualClock(), apps: [{ appId: 'app-test', apiKey: 'key-test' }] });
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { advanceMs: 1 }],
      ['DELETE', undefined],
    ] as const) {
      const error = expectApiError(await call(app, method, '/__clock?appId=ghost', body), 404, 'ERR_NOT_FOUND');
      expect(error.devMessage).toContain('"ghost"');
    }
    expect((await callOk<ClockState>(app, 'POST', '/__clock?appId=app-test', { advanceMs: 1 })).scope).toBe('app');
    const open = makeTestApp({ clock: manualClock() });
    await callOk(open, 'POST', '/__clock?appId=fresh', { advanceMs: 1 });
    const listed = await callOk<{ items: { appId: string }[] }>(open, 'GET', '/__apps');
    expect(listed.items.map((a) => a.appId)).toContain('fresh');
    await open.close();
  });
});
