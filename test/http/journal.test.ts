/**
 * The request journal's content: query string, headers (secrets masked), request and
 * response bodies capped at 64 KiB, every applied scenario rule; bodyContains= and
 * GET /__inspect/requests/{id}.
 */
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, call, send } from '../helpers/app.js';
import type {
  Health,
  JournalEntry,
  JournalPage,
  Notification,
  TemplateView,
  UploadResult,
} from '../helpers/api-types.js';
import type { EmulatorApp } from '../../src/index.js';

const LIMIT = 64 * 1024;
const plain = (targets: string[]) => ({
  template: { key: 'plain' },
  targets,
  mode: targets.length > 1 ? 'batch' : 'realtime',
});
const journal = async (app: EmulatorApp, query = '') =>
  (await call<JournalPage>(app, 'GET', `/__inspect/requests${query}`)).body;
/** The newest entry (the test has made at least one request). */
const lastEntry = async (app: EmulatorApp) => (await journal(app, '?order=desc&limit=1')).items[0]!;

describe('journal entries', () => {
  it('keep the query string, the headers with apikey and authorization masked, and both bodies', async () => {
    const app = makeTestApp();
    const body = plain(['user-1']);
    const res = await call<Notification>(app, 'POST', '/api/notifications/send?trace=1&x=%20y', body, {
      appId: 'shop',
      apiKey: 'secret-key',
      headers: { authorization: 'Bearer secret-token', 'X-Request-Id': 'r-1' },
    });
    expect(res.status).toBe(200);
    const entry = await lastEntry(app);
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/api/notifications/send',
      query: 'trace=1&x=%20y',
      appId: 'shop',
      status: 200,
      requestBody: JSON.stringify(body),
      requestBodyTruncated: false,
      responseBodyTruncated: false,
      rules: [],
    });
    expect(JSON.parse(entry.responseBody!)).toEqual(res.body);
    expect(entry.requestHeaders).toMatchObject({
      appid: 'shop',
      apikey: '***',
      authorization: '***',
      'x-request-id': 'r-1',
      'content-type': 'application/json',
    });
    expect(JSON.stringify(entry)).not.toMatch(/secret-key|secret-token/);
  });

  it('keep each request its own headers after the same, fewer, more or other ones', async () => {
    const app = makeTestApp();
    const sent: Record<string, string>[] = [
      { 'x-a': '1' },
      { 'x-a': '1' },
      { 'x-a': '2' },
      { 'x-a': '2', 'x-b': '1' },
      { 'x-a': '2' },
      {},
    ];
    for (const headers of sent) await send(app, plain(['user-1']), { headers });
    const { items } = await journal(app, `?limit=${sent.length}`);
    const extra = (entry: JournalEntry) =>
      Object.fromEntries(Object.entries(entry.requestHeaders).filter(([name]) => name.startsWith('x-')));
    expect(items.map(extra)).toEqual(sent);
    expect(items[1]!.requestHeaders).toEqual(items[0]!.requestHeaders);
  });

  it('have an empty query, and null bodies for a GET', async () => {
    const app = makeTestApp();
    const res = await call<TemplateView[]>(app, 'GET', '/api/templates');
    const entry = await lastEntry(app);
    expect(entry).toMatchObject({ query: '', requestBody: null, requestBodyTruncated: false });
    expect(JSON.parse(entry.responseBody!)).toEqual(res.body);
  });

  it('keep the error envelope as the response body, and a body the route refused before reading', async () => {
    const app = makeTestApp({ apps: [{ appId: 'shop', apiKey: 'k' }] });
    const refused = await send(app, plain(['a']), { appId: 'shop', apiKey: 'wrong' });
    expectApiError(refused, 401, 'ERR_UNAUTHORIZED');
    const entry = await lastEntry(app);
    expect(entry.requestBody).toBe(JSON.stringify(plain(['a'])));
    expect(JSON.parse(entry.responseBody!)).toEqual(refused.body);
    expect(entry.errorCode).toBe('ERR_UNAUTHORIZED');
  });

  it('keep a multipart upload as text, the CSV visible', async () => {
    const app = makeTestApp();
    const form = new FormData();
    form.set('campaignId', 'nope');
    form.set('file', new Blob(['user_id\nuser-77\n'], { type: 'text/csv' }), 'r.csv');
    const res = await call<UploadResult>(app, 'POST', '/api/campaigns/upload', undefined, { raw: form });
    expect(res.status).toBe(404);
    const entry = await lastEntry(app);
    expect(entry.requestBody).toContain('name="campaignId"');
    expect(entry.requestBody).toContain('user_id\nuser-77');
  });

  it('keep the raw body a scenario answered with', async () => {
    const app = makeTestApp({
      scenarios: [{ name: 'html', rules: [{ match: {}, fault: { status: 502, body: '<h1>Bad Gateway</h1>' } }] }],
    });
    await send(app, plain(['a']), { headers: { 'x-emulator-scenario': 'html' } });
    expect(await lastEntry(app)).toMatchObject({ status: 502, responseBody: '<h1>Bad Gateway</h1>' });
  });
});

describe('64 KiB body cap', () => {
  /** A JSON body of exactly `bytes` bytes (the send route reads it, then refuses it). */
  const bodyOf = (bytes: number, unit = 'a') => {
    const frame = '{"x":""}'.length;
    const unitBytes = Buffer.byteLength(unit);
    const fill = unit.repeat(Math.floor((bytes - frame) / unitBytes));
    return `{"x":"${fill}${'a'.repeat(bytes - frame - Buffer.byteLength(fill))}"}`;
  };
  const post = (app: EmulatorApp, raw: string) =>
    call<Notification>(app, 'POST', '/api/notifications/send', undefined, {
      raw,
      headers: { 'content-type': 'application/json' },
    });

  it('keeps a request body of exactly 64 KiB whole, and cuts one byte more', async () => {
    const app = makeTestApp();
    const exact = bodyOf(LIMIT);
    await post(app, exact);
    expect(await lastEntry(app)).toMatchObject({ requestBody: exact, requestBodyTruncated: false });
    const over = bodyOf(LIMIT + 1);
    await post(app, over);
    const entry = await lastEntry(app);
    expect(entry.requestBodyTruncated).toBe(true);
    expect(entry.requestBody).toBe(over.slice(0, LIMIT));
  });

  it('cuts on a character boundary, never inside a multi-byte character', async () => {
    const app = makeTestApp();
    const body = bodyOf(LIMIT + 10, '€'); // 6 bytes of frame, then 3-byte € characters: one straddles the cap
    await post(app, body);
    const entry = await lastEntry(app);
    expect(entry.requestBodyTruncated).toBe(true);
    expect(Buffer.byteLength(entry.requestBody!)).toBeLessThanOrEqual(LIMIT);
    expect(Buffer.byteLength(entry.requestBody!)).toBeGreaterThan(LIMIT - 4);
    expect(entry.requestBody).not.toContain('\uFFFD');
    expect(body.startsWith(entry.requestBody!)).toBe(true);
  });

  it('reads a refused body only when it declares a length within the cap', async () => {
    const app = makeTestApp();
    const refused = (raw: string, length: number) =>
      call(app, 'POST', '/api/notifications/send', undefined, {
        apiKey: '',
        raw,
        headers: { 'content-type': 'application/json', 'content-length': String(length) },
      });
    const small = bodyOf(100);
    expectApiError(await refused(small, 100), 401, 'ERR_UNAUTHORIZED');
    expect(await lastEntry(app)).toMatchObject({ status: 401, requestBody: small, requestBodyTruncated: false });
    // Over the cap, it is never read: nothing kept, and flagged.
    expectApiError(await refused(bodyOf(LIMIT + 1), LIMIT + 1), 401, 'ERR_UNAUTHORIZED');
    expect(await lastEntry(app)).toMatchObject({ status: 401, requestBody: null, requestBodyTruncated: true });
    expectApiError(await refused('', 0), 401, 'ERR_UNAUTHORIZED');
    expect(await lastEntry(app)).toMatchObject({ status: 401, requestBody: null, requestBodyTruncated: false });
  });

  it('cuts a response body past the cap and marks it', async () => {
    const big = 'x'.repeat(LIMIT + 100);
    const app = makeTestApp({
      scenarios: [{ name: 'big', rules: [{ match: {}, fault: { status: 200, body: big } }] }],
    });
    await send(app, plain(['a']), { headers: { 'x-emulator-scenario': 'big' } });
    const entry = await lastEntry(app);
    expect(entry).toMatchObject({ responseBodyTruncated: true, requestBodyTruncated: false });
    expect(entry.responseBody).toBe(big.slice(0, LIMIT));
  });
});

describe('GET /__inspect/requests?bodyContains=', () => {
  it('matches the request body or the response body, case-sensitively', async () => {
    const app = makeTestApp();
    await send(app, plain(['needle-user']), { appId: 'a' });
    await send(app, plain(['other']), { appId: 'b' });
    await call<TemplateView>(app, 'GET', '/api/templates/no-such-template', undefined, { appId: 'c' });
    const apps = async (q: string) => (await journal(app, q)).items.map((e) => e.appId);
    expect(await apps('?bodyContains=needle-user')).toEqual(['a']);
    expect(await apps('?bodyContains=NEEDLE-USER')).toEqual([]);
    // Only in the response: the 404 envelope names the template.
    expect(await apps('?bodyContains=no-such-template')).toEqual(['c']);
    expect(await apps('?bodyContains=%22mode%22')).toEqual(['a', 'b']);
    expect(await apps('?bodyContains=')).toEqual(['a', 'b', 'c']);
  });
});

describe('GET /__inspect/requests?path=', () => {
  it('finds a request under either API base path, by either form, and shows the path as sent', async () => {
    const app = makeTestApp();
    const full = '/v3/business-messaging/api/notifications/send';
    expect((await call(app, 'POST', full, plain(['u-full']), { appId: 'shop' })).status).toBe(200);
    expect((await call(app, 'POST', '/api/notifications/send', plain(['u-short']), { appId: 'shop' })).status).toBe(
      200,
    );
    expect((await call(app, 'GET', '/api/templates', undefined, { appId: 'shop' })).status).toBe(200);
    for (const asked of ['/api/notifications/send', full, `${full}/`]) {
      const page = await journal(app, `?path=${encodeURIComponent(asked)}`);
      expect(page.total, asked).toBe(2);
      expect(page.items.map((e) => e.path)).toEqual([full, '/api/notifications/send']);
    }
    // A path is matched whole: another endpoint, a prefix of it, or a longer path finds nothing.
    expect((await journal(app, '?path=/api/templates')).items.map((e) => e.path)).toEqual(['/api/templates']);
    expect((await journal(app, '?path=/api/notifications')).total).toBe(0);
    expect((await journal(app, '?path=/v3/business-messaging/api/notifications/send/x')).total).toBe(0);
    expect((await journal(app, '?path=/v3/api/notifications/send')).total).toBe(0);
  });
});

describe('GET /__inspect/requests/{id}', () => {
  it('answers one entry, and 404 in the envelope for an unknown id', async () => {
    const app = makeTestApp();
    await send(app, plain(['a']));
    const entry = await lastEntry(app);
    const one = await call<JournalEntry>(app, 'GET', `/__inspect/requests/${entry.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(entry);
    expectApiError(
      await call<JournalEntry>(app, 'GET', '/__inspect/requests/000000000000000000000000'),
      404,
      'ERR_NOT_FOUND',
    );
    expectApiError(await call<JournalEntry>(app, 'GET', `/__inspect/requests/${entry.id}?x=1`), 400, 'ERR_BAD_REQUEST');
  });
});

describe('journal cap', () => {
  it('keeps maxJournal entries, dropping the oldest, and reports both in /__health', async () => {
    const app = makeTestApp({ maxJournal: 2 });
    for (const user of ['u1', 'u2', 'u3']) await send(app, plain([user]));
    const body = await journal(app);
    expect(body.total).toBe(2);
    expect(body.items.map((e) => (JSON.parse(e.requestBody!) as { targets: string[] }).targets[0])).toEqual([
      'u2',
      'u3',
    ]);
    expect((await call<Health>(app, 'GET', '/__health')).body).toMatchObject({ journal: 2, maxJournal: 2 });
  });

  it('defaults to 10,000 entries and refuses a cap below 1', () => {
    expect(makeTestApp().emulator.options.maxJournal).toBe(10_000);
    expect(() => makeTestApp({ maxJournal: 0 })).toThrow(/maxJournal/);
  });
});
