/**
 * A trace that cannot be used (another version, truncated, invalid records, not JSON) is
 * refused whole with what is wrong named, and the running state stays as it was; the admin
 * token guards the import.
 */
import { describe, expect, it } from 'vitest';
import { call, errorOf, expectApiError, makeTestApp, manualClock } from '../helpers/app.js';
import { createCampaign, upload } from '../helpers/campaigns.js';
import { exportText, observe } from './observe.js';

const as = (appId: string) => ({ appId, apiKey: `key-${appId}` });
const sendBody = (targets: string[]) => ({ template: { key: 'plain' }, targets, mode: 'batch' });

async function withTraffic() {
  const app = makeTestApp({ clock: manualClock(), scenarios: [] });
  await call(app, 'POST', '/api/notifications/send', sendBody(['u1', 'u2']), as('app-a'));
  await call(app, 'POST', '/api/notifications/send', sendBody(['u3']), as('app-b'));
  return app;
}

const importText = (app: ReturnType<typeof makeTestApp>, text: string, query = '') =>
  call(app, 'POST', `/__import${query}`, undefined, { raw: text });

describe('POST /__import refuses a bad trace and changes nothing', () => {
  const cases: [string, (trace: string) => string, RegExp][] = [
    ['another version', (t) => t.replace('"version":1', '"version":2'), /version: this emulator reads trace version 1/],
    ['another format', (t) => t.replace('notification-emulator-trace', 'har'), /format: expected/],
    ['a truncated file', (t) => t.slice(0, t.indexOf('"deliveries":[') + 40), /truncated|not whole JSON/],
    ['a file cut after a list', (t) => t.slice(0, t.indexOf('"journal":[')), /not whole JSON \(truncated\?\)/],
    [
      'an invalid record',
      (t) => t.replace(/"status":"sent"/, '"status":"lost"'),
      /deliveries\[0\]\.status: Invalid option/,
    ],
    ['a bad header field', (t) => t.replace(/"counter":\d+/, '"counter":-1'), /trace\.ids\.counter/],
    [
      'a clock no date can hold (it would fail half-way through the import)',
      (t) => t.replace(/"shared":\{"now":"[^"]+"/, '"shared":{"now":"+275760-09-14T00:00:00.000Z"'),
      /trace\.clocks\.shared\.now: must be an ISO 8601 instant/,
    ],
    ['not JSON at all', () => 'hello', /not whole JSON/],
    [
      'a record nested too deep to write again',
      (t) => t.replace('"tag":null', `"tag":${'['.repeat(1000)}${']'.repeat(1000)}`),
      /nested more than 66 levels deep/,
    ],
    ['an empty body', () => '', /empty/],
  ];
  for (const [what, spoil, message] of cases) {
    it(`names ${what}`, async () => {
      const source = await withTraffic();
      const trace = await exportText(source);
      const target = await withTraffic();
      await call(target, 'POST', '/api/notifications/send', sendBody(['only-here']), as('app-c'));
      const before = await observe(target);
      const res = await importText(target, spoil(trace));
      expect(expectApiError(res, 400, 'ERR_BAD_REQUEST').devMessage).toMatch(message);
      expect(errorOf(res).details.trace).toBeDefined();
      expect(await observe(target)).toEqual(before);
    });
  }

  it('names a recipient whose campaign the trace does not hold', async () => {
    const source = makeTestApp({ clock: manualClock(), scenarios: [] });
    const campaign = await createCampaign(source, { templateId: 'plain' });
    expect((await upload(source, 'user_id\nu1\nu2', campaign.id)).status).toBe(200);
    const trace = await exportText(source);
    const orphan = trace.replace(`"campaignId":"${campaign.id}"`, '"campaignId":"gone"');
    const target = await withTraffic();
    const before = await observe(target);
    const res = await importText(target, orphan);
    expect(expectApiError(res, 400, 'ERR_BAD_REQUEST').devMessage).toMatch(
      /recipients\[0\]\.campaignId: the trace holds no campaign "gone"/,
    );
    expect(await observe(target)).toEqual(before);
  });

  it('reads the same trace reformatted (any JSON layout)', async () => {
    const source = await withTraffic();
    const trace = await exportText(source);
    const target = makeTestApp({ clock: manualClock(), scenarios: [] });
    const res = await importText(target, JSON.stringify(JSON.parse(trace), null, 2));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await observe(target)).toEqual(await observe(source));
  });

  it('needs the admin token when one is configured', async () => {
    const source = await withTraffic();
    const trace = await exportText(source);
    const guarded = makeTestApp({ adminToken: 'secret', scenarios: [] });
    expectApiError(await importText(guarded, trace), 401, 'ERR_UNAUTHORIZED');
    const res = await call(guarded, 'POST', '/__import', undefined, {
      raw: trace,
      headers: { authorization: 'Bearer secret' },
    });
    expect(res.status).toBe(200);
  });
});
