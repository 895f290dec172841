/**
 * The burst metric's queries (bench/metrics/burst.ts): each inspect kind's documented
 * filters, and the ids and sizes they are read against on the full-store server.
 */
import { API_HEADERS } from '../util.js';

export type Query = (i: number) => string;

/** Each inspect kind's queries: its documented filters, pages far from the first, both orders. */
export function kinds(ids: { campaign: string; deliveries: DeliveryIds }): Record<string, Query[]> {
  const user = (i: number) => `user-${(i * 7919) % 100_000}`;
  const hourAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
  const range = `since=${hourAgo}&until=${new Date().toISOString()}`;
  const notif = (i: number) => `notif_${(0x10000000 + i * 3).toString(16).padStart(24, '0')}`;
  return {
    deliveries: [
      (i) => `/__inspect/deliveries?userId=${user(i)}`,
      (i) => `/__inspect/deliveries?appId=bench-app&userId=${user(i)}&status=sent`,
      (i) => `/__inspect/deliveries?appId=bench-app-2&templateKey=template-${i % 5}`,
      (i) => `/__inspect/deliveries?tag=tag-${i % 7}&order=desc`,
      () => '/__inspect/deliveries?channel=push&offset=5000',
      () => '/__inspect/deliveries?status=failed&order=desc&offset=200',
      () => `/__inspect/deliveries?mode=realtime&${range}&offset=1000`,
      () => '/__inspect/deliveries?appId=bench-app&mode=batch&tag=bench&limit=20',
      // A batch's notification and a realtime one's: each is filed by its block of 256 ids.
      (i) =>
        `/__inspect/deliveries?notificationId=${ids.deliveries.notifications[i % ids.deliveries.notifications.length]}`,
    ],
    'delivery-stats': [
      () => '/__inspect/delivery-stats',
      () => `/__inspect/delivery-stats?appId=bench-app&${range}`,
      (i) => `/__inspect/delivery-stats?templateKey=template-${i % 5}&${range}&bucketMs=300000`,
      () => `/__inspect/delivery-stats?channel=push&mode=realtime&${range}`,
    ],
    notifications: [
      () => '/__inspect/notifications?appId=bench-app&mode=realtime',
      (i) => `/__inspect/notifications?templateKey=template-${i % 5}&order=desc&offset=3000`,
      (i) => `/__inspect/notifications?appId=bench-app-2&tag=tag-${i % 7}`,
      (i) => `/__inspect/notifications?notificationId=${notif(i)}`,
      () => `/__inspect/notifications?mode=batch&${range}`,
      (i) => `/__inspect/notifications?mode=batch&templateKey=template-${i % 5}`,
    ],
    requests: [
      () => '/__inspect/requests?appId=bench-app&method=GET',
      () => '/__inspect/requests?path=/api/notifications/send&status=400&order=desc',
      () => '/__inspect/requests?errorCode=ERR_BAD_REQUEST&offset=200',
      () => '/__inspect/requests?scenario=flaky',
      () => `/__inspect/requests?${range}&order=desc&offset=2000`,
      () => '/__inspect/requests?appId=bench-app-2&method=POST&status=200',
    ],
    'requests bodyContains': [(i) => `/__inspect/requests?bodyContains=${encodeURIComponent(`"n":${i * 97},`)}`],
    campaigns: [
      () => '/__inspect/campaigns?status=sent',
      () => '/__inspect/campaigns?appId=bench-app&order=desc&offset=100',
      () => '/__inspect/campaigns?appId=bench-app-2&status=draft',
      () => `/__inspect/campaigns/${ids.campaign}`,
    ],
    'campaign recipients': [
      () => `/__inspect/campaigns/${ids.campaign}/recipients?status=failed`,
      () => `/__inspect/campaigns/${ids.campaign}/recipients?order=desc&offset=50`,
    ],
    apps: [() => '/__apps', () => '/__apps/bench-app/templates'],
    'deliveries by id': [(i) => `/__inspect/deliveries/${ids.deliveries.ids[i % ids.deliveries.ids.length]}`],
    'GET /api/analytics/users/{id}': [(i) => `/api/analytics/users/${user(i)}`],
  };
}

/** The lists that keep their answers between writes (src/reads/answer-memo.ts), by path. */
const KEPT_LIST = /^\/__inspect\/(deliveries|notifications|requests|campaigns|campaigns\/[^/]+\/recipients)$/;

/**
 * `url` with a page size of its own for call `i` (20 + i), for a list that keeps its answers:
 * each sequential call is then answered from the indexes, not from the answer kept for the
 * call before (which measured the kept answers, not the filter).
 */
export function pageOfItsOwn(url: string, i: number): string {
  const parsed = new URL(url, 'http://bench');
  if (!KEPT_LIST.test(parsed.pathname)) return url;
  parsed.searchParams.set('limit', String(20 + i));
  return `${parsed.pathname}${parsed.search}`;
}

export const json = async <T>(url: string) => (await (await fetch(url)).json()) as T;

/** Deliveries' ids and their notifications' ids, from the oldest (batches) to the newest (realtime sends). */
export interface DeliveryIds {
  ids: string[];
  notifications: string[];
}

/** The ids the by-id and by-notification queries ask for: the oldest deliveries, the newest and some between. */
export async function deliveryIds(url: string): Promise<DeliveryIds> {
  const { total } = await json<{ total: number }>(`${url}/__inspect/deliveries?limit=0`);
  const found: DeliveryIds = { ids: [], notifications: [] };
  for (const offset of [0, 1, Math.floor(total / 3), Math.floor(total / 2), total - 2, total - 1]) {
    const page = await json<{ items: { id: string; notificationId: string }[] }>(
      `${url}/__inspect/deliveries?limit=1&offset=${offset}`,
    );
    found.ids.push(page.items[0]!.id);
    found.notifications.push(page.items[0]!.notificationId);
  }
  return found;
}

/** The size of the largest answer among the kinds' first queries. */
export async function largestPage(base: string, all: Record<string, Query[]>): Promise<number> {
  let largest = 0;
  for (const queries of Object.values(all)) {
    const res = await fetch(`${base}${queries[0]!(0)}`, { headers: API_HEADERS });
    largest = Math.max(largest, (await res.arrayBuffer()).byteLength);
  }
  return largest;
}
