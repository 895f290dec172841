/**
 * Pure predicates and paging shared by every list the store answers: what each filter of the
 * ports means. The inspect stream tests events with the same predicates, so a live list and
 * the same list read page by page agree on what matches.
 */
import { normalisePath } from './api-path.js';
import type { JournalEntry, NotificationRecord } from '../schemas/records.js';
import type {
  DeliveryFilter,
  JournalFilter,
  ListResult,
  NotificationFilter,
  Page,
  SharedDeliveryFields,
} from './ports.js';

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
  /** The filter's time range as ISO 8601 text, as createdAt is compared. */
  since: string | undefined;
  until: string | undefined;
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
    since,
    until,
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
  const text = f.bodyContains;
  // Either API base path finds requests sent to either (entries keep the path as sent).
  const path = f.path === undefined ? undefined : normalisePath(f.path);
  return (e) =>
    (f.appId === undefined || e.appId === f.appId) &&
    (f.method === undefined || e.method === f.method.toUpperCase()) &&
    (path === undefined || normalisePath(e.path) === path) &&
    (f.status === undefined || e.status === f.status) &&
    (f.errorCode === undefined || e.errorCode === f.errorCode) &&
    (f.scenario === undefined || e.scenario === f.scenario || e.rules.some((r) => r.scenario === f.scenario)) &&
    (text === undefined || e.requestBody?.includes(text) === true || e.responseBody?.includes(text) === true) &&
    inTimeRange(e.time, since, until);
}

/** Whether a filter sets any field (an empty one lets a list page by index alone). */
export const isFiltered = (filter: object): boolean => Object.values(filter).some((v) => v !== undefined);

/** A list read by position: arrays and the Deque. */
export interface Positional<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/**
 * One pass in the page's order (newest first for `desc`): counts every match and keeps the
 * requested window. Without a predicate the window is index arithmetic: no pass at all.
 */
export function paginate<T>(source: Positional<T>, matches: ((item: T) => boolean) | null, page: Page): ListResult<T> {
  const items: T[] = [];
  const desc = page.order === 'desc';
  const { length } = source;
  if (matches === null) {
    for (let k = page.offset; k < length && items.length < page.limit; k++)
      items.push(source.at(desc ? length - 1 - k : k)!);
    return { total: length, items };
  }
  let total = 0;
  const end = page.offset + page.limit;
  for (let k = 0; k < length; k++) {
    const item = source.at(desc ? length - 1 - k : k)!;
    if (!matches(item)) continue;
    if (total >= page.offset && total < end) items.push(item);
    total++;
  }
  return { total, items };
}
