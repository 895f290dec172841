/**
 * Everything a user can read of an emulator's state over the control plane (every
 * /__inspect list, /__scenarios, /__clock, /__health counts, /__apps): what a trace's
 * import must give back as it was.
 */
import type { EmulatorApp } from '../../src/index.js';
import { call, callOk, type List } from '../helpers/app.js';

const ALL = 'limit=10000';

export async function observe(app: EmulatorApp): Promise<Record<string, unknown>> {
  const campaigns = await callOk<List<{ id: string }>>(app, 'GET', `/__inspect/campaigns?${ALL}`);
  const recipients: Record<string, unknown> = {};
  for (const { id } of campaigns.items)
    recipients[id] = await callOk(app, 'GET', `/__inspect/campaigns/${id}/recipients?${ALL}`);
  const health = await callOk<Record<string, unknown>>(app, 'GET', '/__health');
  const { uptimeMs: _uptime, trace: _trace, ...counts } = health;
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
    apps: await callOk(app, 'GET', '/__apps'),
  };
  // One delivery and one journal entry by id: the lookups, not only the lists.
  const firstDelivery = (views.deliveries as List<{ id: string }>).items[0];
  if (firstDelivery) views.deliveryById = (await call(app, 'GET', `/__inspect/deliveries/${firstDelivery.id}`)).body;
  return views;
}

/** The trace GET /__export answers, as text. */
export async function exportText(app: EmulatorApp, query = ''): Promise<string> {
  const res = await app.request(`/__export${query}`);
  if (res.status !== 200) throw new Error(`GET /__export${query} answered ${res.status}: ${await res.text()}`);
  return res.text();
}
