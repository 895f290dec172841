/**
 * Pure predicates and paging shared by every list the store answers.
 */
import type { JournalEntry, NotificationRecord } from '../schemas/records.js';
import type {
  DeliveryFilter,
  JournalFilter,
  ListResult,
  NotificationFilter,
  Page,
  SharedDeliveryFields,
} from '../domain/ports.js';

const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

function inTimeRange(createdAt: string, since: string | undefined, until: string | undefined): boolean {
  return (since === undefined || createdAt >= since) && (until === undefined || createdAt <= until);
}

/**
 * A delivery filter in two parts: the fields a whole run shares (tested once per run) and
 * the two that differ per member (user and status).
 */
export interface DeliveryMatcher {
  shared: (d: SharedDeliveryFields) => boolean;
  member: (userId: string, status: string) => boolean;
}

export function deliveryMatcher(f: DeliveryFilter): DeliveryMatcher {
  const since = iso(f.since);
  const until = iso(f.until);
  return {
    shared: (d) =>
      (f.appId === undefined || d.appId === f.appId) &&
      (f.templateKey === undefined || d.templateKey === f.templateKey) &&
      (f.templateId === undefined || d.templateId === f.templateId) &&
      (f.campaignId === undefined || d.campaignId === f.campaignId) &&
      (f.notificationId === undefined || d.notificationId === f.notificationId) &&
      (f.mode === undefined || d.mode === f.mode) &&
      (f.channel === undefined || d.channels.includes(f.channel)) &&
      (f.tag === undefined || d.tag === f.tag) &&
      inTimeRange(d.createdAt, since, until),
    member: (userId, status) =>
      (f.userId === undefined || userId === f.userId) && (f.status === undefined || status === f.status),
  };
}

export function notificationPredicate(f: NotificationFilter): (n: NotificationRecord) => boolean {
  const since = iso(f.since);
  const until = iso(f.until);
  return (n) =>
    (f.appId === undefined || n.appId === f.appId) &&
    (f.templateKey === undefined || n.templateKey === f.templateKey) &&
    (f.notificationId === undefined || n.notificationId === f.notificationId) &&
    (f.mode === undefined || n.mode === f.mode) &&
    (f.tag === undefined || n.tag === f.tag) &&
    inTimeRange(n.createdAt, since, until);
}

export function journalPredicate(f: JournalFilter): (e: JournalEntry) => boolean {
  const since = iso(f.since);
  const until = iso(f.until);
  return (e) =>
    (f.appId === undefined || e.appId === f.appId) &&
    (f.method === undefined || e.method === f.method.toUpperCase()) &&
    (f.path === undefined || e.path === f.path) &&
    (f.status === undefined || e.status === f.status) &&
    (f.errorCode === undefined || e.errorCode === f.errorCode) &&
    (f.scenario === undefined || e.scenario === f.scenario) &&
    inTimeRange(e.time, since, until);
}

/** One pass: counts every match and keeps the requested window (oldest first). */
export function paginate<T>(source: Iterable<T>, matches: (item: T) => boolean, page: Page): ListResult<T> {
  const items: T[] = [];
  let total = 0;
  const end = page.offset + page.limit;
  for (const item of source) {
    if (!matches(item)) continue;
    if (total >= page.offset && total < end) items.push(item);
    total++;
  }
  return { total, items };
}
