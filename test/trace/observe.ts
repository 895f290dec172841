/**
 * Everything a user can read of an emulator's state over the control plane (every
 * /__inspect list, filtered ones too, /__scenarios, /__clock and /__health counts, each
 * app's own clock and scenarios, /__apps): what a trace's import must give back as it was.
 */
import type { EmulatorApp } from '../../src/index.js';
import { call, callOk, type List } from '../helpers/app.js';
import { checkAnswer } from '../helpers/openapi.js';

/** Every record of a small state; `observe(app, 50)` reads the first pages of a big one. */
const EVERY = 10_000;

/** Queries answered from the store's key indexes (src/store/common/filter-keys.ts): each right after an import. */
const FILTERED = [
  '/__inspect/deliveries?userId=u1',
  '/__inspect/deliveries?status=failed',
  '/__inspect/deliveries?templateKey=plain&mode=batch',
  '/__inspect/deliveries?channel=in_app&order=desc',
  '/__inspect/notifications?templateKey=greeting',
  '/__inspect/requests?status=400',
  '/__inspect/requests?path=/api/notifications/send&method=post',
  '/__inspect/requests?scenario=fail-u1',
  '/__inspect/requests?errorCode=ERR_TOO_MANY_REQUESTS',
  '/__inspect/requests?bodyContains=Ann',
];

/** What one app sees: its records by the appId filter, its clock and its scenarios. */
async function appViews(app: EmulatorApp, appId: string, ALL: string): Promise<Record<string, unknown>> {
  const q = `appId=${encodeURIComponent(appId)}&${ALL}`;
  return {
    deliveries: await callOk(app, 'GET', `/__inspect/deliveries?${q}`),
    notifications: await callOk(app, 'GET', `/__inspect/notifications?${q}`),
    requests: await callOk(app, 'GET', `/__inspect/requests?${q}`),
    campaigns: await callOk(app, 'GET', `/__inspect/campaigns?${q}`),
    deliveryStats: await callOk(app, 'GET', `/__inspect/delivery-stats?appId=${encodeURIComponent(appId)}`),
    clock: await callOk(app, 'GET', `/__clock?appId=${encodeURIComponent(appId)}`),
    scenarios: await callOk(app, 'GET', `/__scenarios?appId=${encodeURIComponent(appId)}`),
  };
}

export async function observe(app: EmulatorApp, pageSize = EVERY): Promise<Record<string, unknown>> {
  const ALL = `limit=${pageSize}`;
  const campaigns = await callOk<List<{ id: string }>>(app, 'GET', `/__inspect/campaigns?${ALL}`);
  const recipients: Record<string, unknown> = {};
  for (const { id } of campaigns.items)
    recipients[id] = await callOk(app, 'GET', `/__inspect/campaigns/${id}/recipients?${ALL}`);
  const health = await callOk<Record<string, unknown>>(app, 'GET', '/__health');
  const { uptimeMs: _uptime, trace: _trace, memory: _memory, ...counts } = health;
  const apps = await callOk<{ items: { appId: string }[] }>(app, 'GET', '/__apps');
  const perApp: Record<string, unknown> = {};
  for (const { appId } of apps.items) perApp[appId] = await appViews(app, appId, ALL);
  const filtered: Record<string, unknown> = {};
  for (const path of FILTERED) filtered[path] = await callOk(app, 'GET', `${path}&${ALL}`);
  const views: Record<string, unknown> = {
    deliveries: await callOk(app, 'GET', `/__inspect/deliveries?${ALL}`),
    deliveriesDesc: await callOk(app, 'GET', `/__inspect/deliveries?${ALL}&order=desc`),
    notifications: await callOk(app, 'GET', `/__inspect/notifications?${ALL}`),
    requests: await callOk(app, 'GET', `/__inspect/requests?${ALL}`),
    deliveryStats: await callOk(app, 'GET', '/__inspect/delivery-stats'),
    campaigns,
    recipients,
    scenarios: await callOk(app, 'GET', '/__scenarios'),
    clock: await callOk(app, 'GET', '/__clock'),
    health: counts,
    apps,
    perApp,
    filtered,
  };
  // One delivery and one journal entry by id: the lookups, not only the lists.
  const firstDelivery = (views.deliveries as List<{ id: string }>).items[0];
  if (firstDelivery) views.deliveryById = (await call(app, 'GET', `/__inspect/deliveries/${firstDelivery.id}`)).body;
  const firstRequest = (views.requests as List<{ id: string }>).items[0];
  if (firstRequest) views.requestById = (await call(app, 'GET', `/__inspect/requests/${firstRequest.id}`)).body;
  return views;
}

/**
 * The trace GET /__export answers, as text; checked against openapi.json unless `unchecked`
 * (a trace of 100,000 records takes seconds to check).
 */
export async function exportText(app: EmulatorApp, query = '', { unchecked = false } = {}): Promise<string> {
  const res = await app.request(`/__export${query}`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /__export${query} answered ${res.status}: ${text}`);
  if (!unchecked)
    checkAnswer(app, 'GET', `/__export${query}`, { status: 200, body: JSON.parse(text), headers: res.headers });
  return text;
}
