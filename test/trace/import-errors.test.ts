/**
 * A trace that cannot be used (another version, truncated, invalid records, not JSON) is
 * refused whole with what is wrong named, and the running state stays as it was; the admin
 * token guards the import; one app's trace replaces that app only.
 */
import { describe, expect, it } from 'vitest';
import { call, errorOf, expectApiError, makeTestApp, manualClock } from '../helpers/app.js';
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
    ['not JSON at all', () => 'hello', /not whole JSON/],
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

describe('one app', () => {
  it('GET /__export?appId holds that app only, and ?appId on import replaces that app only', async () => {
    const source = await withTraffic();
    const trace = await exportText(source, '?appId=app-a');
    const parsed = JSON.parse(trace) as { appId: string; deliveries: { appId: string }[] };
    expect(parsed.appId).toBe('app-a');
    expect(parsed.deliveries.map((d) => d.appId)).toEqual(['app-a', 'app-a']);

    const target = makeTestApp({ clock: manualClock(), scenarios: [] });
    await call(target, 'POST', '/api/notifications/send', sendBody(['b-own']), as('app-b'));
    await call(target, 'POST', '/api/notifications/send', sendBody(['a-old']), as('app-a'));
    const bBefore = await call(target, 'GET', '/__inspect/deliveries?appId=app-b');
    const res = await importText(target, trace, '?appId=app-a&fileName=a.json');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await call(target, 'GET', '/__inspect/deliveries?appId=app-b')).body).toEqual(bBefore.body);
    expect((await call(target, 'GET', '/__inspect/deliveries?appId=app-a')).body).toEqual(
      (await call(source, 'GET', '/__inspect/deliveries?appId=app-a')).body,
    );
    expect((await call(target, 'GET', '/__health')).body).toMatchObject({
      trace: { fileName: 'a.json', appId: 'app-a', exportedAt: expect.any(String) },
    });
    // Another app's trace is not taken for this one.
    const wrong = await importText(target, trace, '?appId=app-b');
    expect(expectApiError(wrong, 400, 'ERR_BAD_REQUEST').devMessage).toMatch(/holds app "app-a" only/);
  });

  it('answers content-disposition with the instant in the file name, and keys masked', async () => {
    const app = makeTestApp({ apps: [{ appId: 'app-a', apiKey: 'very-secret' }], adminToken: 'tok', scenarios: [] });
    const res = await app.request('/__export', { headers: { authorization: 'Bearer tok' } });
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="notification-emulator-trace-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json"$/,
    );
    const text = await res.text();
    expect(text).not.toContain('very-secret');
    expect(text).not.toContain('"tok"');
    expect(JSON.parse(text)).toMatchObject({
      apps: [{ appId: 'app-a', apiKey: '***' }],
      options: { adminTokenRequired: true },
    });
  });
});
