/**
 * Every list of the emulated API pages the same way: `page` from 1, `limit` 1..1000
 * (default 20), the total in X-Total-Count, bad values → 400 naming the parameter, and an
 * empty value counts as absent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, call, errorOf, callOk } from '../helpers/app.js';
import type { AddRecipientsResult, Campaign, Channel, TemplateChannel, TemplateView } from '../helpers/api-types.js';
import type { EmulatorApp } from '../../src/index.js';

const N = 21; // one more than the default limit
const APP = 'app-paging';

let app: EmulatorApp;
const lists: Record<string, string> = {};

beforeAll(async () => {
  app = makeTestApp({ templates: [] });
  const opts = { appId: APP };
  const channelIds: string[] = [];
  for (let i = 0; i < N; i++) {
    const ch = await call<Channel>(
      app,
      'POST',
      '/api/channels',
      { name: `Ch ${i}`, type: 'in_app', templateType: 'ui' },
      opts,
    );
    channelIds.push(ch.body.id);
  }
  const first = await call<TemplateView>(app, 'POST', '/api/templates', { name: 'Tpl 0', channelIds }, opts);
  for (let i = 1; i < N; i++)
    await call<TemplateView>(app, 'POST', '/api/templates', { name: `Tpl ${i}`, channelIds: [channelIds[i]!] }, opts);
  for (const channelId of channelIds) {
    const body = { templateId: first.body.id, channelId, channelType: 'in_app', content: { title: channelId } };
    expect((await call<TemplateChannel>(app, 'POST', '/api/template-channels', body, opts)).status).toBe(200);
  }
  await callOk<TemplateView>(app, 'PUT', `/api/templates/${first.body.id}`, { status: 'approved' }, opts);
  let campaignId = '';
  for (let i = 0; i < N; i++) {
    const body = { name: `Campaign ${i}`, templateId: first.body.id, deliveryMode: 'batch' };
    const created = await call<Campaign>(app, 'POST', '/api/campaigns', body, opts);
    expect(created.status).toBe(200);
    campaignId = created.body.id;
  }
  const userIds = Array.from({ length: N }, (_, i) => `user-${i}`);
  await callOk<AddRecipientsResult>(app, 'POST', `/api/campaigns/${campaignId}/recipients`, { userIds }, opts);
  Object.assign(lists, {
    channels: '/api/channels?',
    templates: '/api/templates?',
    campaigns: '/api/campaigns?',
    recipients: `/api/campaigns/${campaignId}/recipients?`,
    'template-channels': `/api/template-channels?templateId=${first.body.id}&`,
  });
});

/** Every list of the API answers a bare JSON array; items differ per list and are compared whole here. */
const get = (path: string) => call<unknown[]>(app, 'GET', path, undefined, { appId: APP });
const names = ['channels', 'templates', 'campaigns', 'recipients', 'template-channels'];

describe.each(names)('GET %s list', (name) => {
  it(`answers ${N - 1} of ${N} by default (limit 20), the rest on page 2, and X-Total-Count ${N} on each`, async () => {
    const first = await get(lists[name]!);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(20);
    expect(first.headers.get('x-total-count')).toBe(String(N));
    const second = await get(`${lists[name]}page=2`);
    expect(second.body).toHaveLength(1);
    expect(second.headers.get('x-total-count')).toBe(String(N));
    const beyond = await get(`${lists[name]}page=3`);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('x-total-count')).toBe(String(N));
  });

  it('takes limit from 1 to 1000 and pages by it, in a stable order', async () => {
    const all = (await get(`${lists[name]}limit=1000`)).body;
    expect(all).toHaveLength(N);
    const one = await get(`${lists[name]}limit=1&page=${N}`);
    expect(one.body).toEqual([all[N - 1]]);
    const five = await get(`${lists[name]}limit=5&page=2`);
    expect(five.body).toEqual(all.slice(5, 10));
    expect((await get(`${lists[name]}limit=${N}`)).body).toHaveLength(N);
  });

  it.each([
    ['page=0', 'page', /integer ≥ 1/],
    ['page=-1', 'page', /integer ≥ 1/],
    ['page=1.5', 'page', /integer ≥ 1/],
    ['page=abc', 'page', /integer ≥ 1/],
    ['limit=0', 'limit', /1 to 1000/],
    ['limit=1001', 'limit', /1 to 1000/],
    ['limit=2.5', 'limit', /1 to 1000/],
    ['limit=ten', 'limit', /1 to 1000/],
  ])('answers 400 naming the parameter and its range for %s', async (query, param, rule) => {
    const res = await get(`${lists[name]}${query}`);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toEqual({ [param]: expect.stringMatching(rule) });
    expect(errorOf(res).devMessage).toContain(param);
  });

  it('reads an empty page or limit as absent', async () => {
    const res = await get(`${lists[name]}page=&limit=`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(20);
  });
});

describe('empty filter values mean absent', () => {
  it('GET /api/campaigns?page=1&limit=20&status= answers 200 with every campaign', async () => {
    const res = await get('/api/campaigns?page=1&limit=20&status=');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe(String(N));
  });

  it('recipients ?status= and templates ?channelId= are no filter either', async () => {
    expect((await get(`${lists.recipients}status=`)).headers.get('x-total-count')).toBe(String(N));
    expect((await get('/api/templates?channelId=')).headers.get('x-total-count')).toBe(String(N));
  });

  it('a bad status is still a 400 naming it', async () => {
    const res = await get('/api/campaigns?status=done');
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('status');
  });
});
