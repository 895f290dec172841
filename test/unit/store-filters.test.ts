/**
 * The store's filters and paging as plain functions (src/domain/record-filters.ts): each filter field
 * narrows on its own, the time range is inclusive, and a page is a window over the matches.
 */
import { describe, expect, it } from 'vitest';
import {
  deliveryMatcher,
  isFiltered,
  journalPredicate,
  notificationPredicate,
  paginate,
} from '../../src/domain/record-filters.js';
import type { SharedDeliveryFields } from '../../src/domain/ports.js';
import { at, journalEntry, notification } from '../helpers/store-contract/records.js';

const shared = (over: Partial<SharedDeliveryFields> = {}): SharedDeliveryFields => ({
  appId: 'app-a',
  notificationId: 'notif_1',
  campaignId: null,
  templateId: 'tpl-1',
  templateKey: 'welcome',
  channels: ['in_app', 'push'],
  mode: 'batch',
  title: null,
  tag: null,
  pushData: null,
  createdAt: at(2),
  ...over,
});

describe('deliveryMatcher', () => {
  it.each([
    [{ appId: 'app-a' }, { appId: 'app-b' }],
    [{ templateKey: 'welcome' }, { templateKey: 'other' }],
    [{ templateId: 'tpl-1' }, { templateId: 'tpl-2' }],
    [{ campaignId: 'c1' }, { campaignId: 'c2' }],
    [{ notificationId: 'notif_1' }, { notificationId: 'notif_2' }],
    [{ mode: 'batch' }, { mode: 'realtime' }],
    [{ channel: 'push' }, { channel: 'sms' }],
    [{ tag: 'promo' }, { tag: 'other' }],
  ] as const)('keeps %j and drops %j', (keeps, drops) => {
    const record = shared({ campaignId: 'c1', tag: 'promo' });
    expect(deliveryMatcher(keeps).shared(record)).toBe(true);
    expect(deliveryMatcher(drops).shared(record)).toBe(false);
  });

  it('keeps everything when empty, and tests user and status per member', () => {
    const all = deliveryMatcher({});
    expect(all.shared(shared())).toBe(true);
    expect(all.member('u1', 'failed')).toBe(true);
    const m = deliveryMatcher({ userId: 'u1', status: 'sent' });
    expect(m.member('u1', 'sent')).toBe(true);
    expect(m.member('u2', 'sent')).toBe(false);
    expect(m.member('u1', 'failed')).toBe(false);
    expect(deliveryMatcher({ channel: 'in_app' }).shared(shared())).toBe(true);
  });

  it('has an inclusive time range', () => {
    const since = Date.parse(at(2));
    expect(deliveryMatcher({ since }).shared(shared())).toBe(true);
    expect(deliveryMatcher({ until: since }).shared(shared())).toBe(true);
    expect(deliveryMatcher({ since: since + 1 }).shared(shared())).toBe(false);
    expect(deliveryMatcher({ until: since - 1 }).shared(shared())).toBe(false);
    expect(deliveryMatcher({ since: since - 1, until: since + 1 }).shared(shared())).toBe(true);
  });
});

describe('notificationPredicate', () => {
  const n = notification(2, { mode: 'batch', tag: 'promo', templateKey: 'welcome' });
  it.each([
    [{ appId: 'app-a' }, { appId: 'app-b' }],
    [{ templateKey: 'welcome' }, { templateKey: 'other' }],
    [{ notificationId: 'notif_2' }, { notificationId: 'notif_1' }],
    [{ mode: 'batch' }, { mode: 'realtime' }],
    [{ tag: 'promo' }, { tag: 'other' }],
    [{ since: Date.parse(at(2)) }, { since: Date.parse(at(2)) + 1 }],
    [{ until: Date.parse(at(2)) }, { until: Date.parse(at(2)) - 1 }],
  ] as const)('keeps %j and drops %j', (keeps, drops) => {
    expect(notificationPredicate(keeps)(n)).toBe(true);
    expect(notificationPredicate(drops)(n)).toBe(false);
  });
});

describe('journalPredicate', () => {
  const entry = journalEntry(2, {
    method: 'POST',
    path: '/v3/business-messaging/api/notifications/send',
    status: 400,
    errorCode: 'ERR_INVALID_VARIABLES',
    requestBody: '{"targets":["ada"]}',
    responseBody: '{"error":"x"}',
    scenario: 'b',
    rules: [
      { scenario: 'a', index: 1, rule: 'rule 1' },
      { scenario: 'b', index: 1, rule: 'rule 1' },
    ],
  });
  it.each([
    [{ appId: 'app-a' }, { appId: 'app-b' }],
    [{ method: 'post' }, { method: 'GET' }],
    [{ path: '/api/notifications/send' }, { path: '/api/templates' }],
    [{ path: '/v3/business-messaging/api/notifications/send/' }, { path: '/api/notifications' }],
    [{ status: 400 }, { status: 200 }],
    [{ errorCode: 'ERR_INVALID_VARIABLES' }, { errorCode: 'ERR_NOT_FOUND' }],
    [{ scenario: 'a' }, { scenario: 'c' }],
    [{ scenario: 'b' }, { scenario: 'B' }],
    [{ bodyContains: 'ada' }, { bodyContains: 'ADA' }],
    [{ bodyContains: '"error"' }, { bodyContains: 'nowhere' }],
    [{ since: Date.parse(at(2)) }, { since: Date.parse(at(2)) + 1 }],
    [{ until: Date.parse(at(2)) }, { until: Date.parse(at(2)) - 1 }],
  ] as const)('keeps %j and drops %j', (keeps, drops) => {
    expect(journalPredicate(keeps)(entry)).toBe(true);
    expect(journalPredicate(drops)(entry)).toBe(false);
  });

  it('finds a short-path request by the full form, and an entry by its last rule alone', () => {
    const short = journalEntry(1, { path: '/api/notifications/send' });
    expect(journalPredicate({ path: '/v3/business-messaging/api/notifications/send' })(short)).toBe(true);
    expect(journalPredicate({ scenario: 'old' })(journalEntry(3, { scenario: 'old', rules: [] }))).toBe(true);
    expect(journalPredicate({ bodyContains: 'x' })(journalEntry(4))).toBe(false);
  });
});

describe('isFiltered and paginate', () => {
  it('isFiltered: any field set', () => {
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ appId: undefined })).toBe(false);
    expect(isFiltered({ appId: undefined, status: 0 })).toBe(true);
  });

  const items = [1, 2, 3, 4, 5, 6];
  const even = (n: number) => n % 2 === 0;
  it('pages by position without a predicate, in either order', () => {
    expect(paginate(items, null, { offset: 1, limit: 2 })).toEqual({ total: 6, items: [2, 3] });
    expect(paginate(items, null, { offset: 1, limit: 2, order: 'desc' })).toEqual({ total: 6, items: [5, 4] });
    expect(paginate(items, null, { offset: 5, limit: 5 })).toEqual({ total: 6, items: [6] });
    expect(paginate(items, null, { offset: 6, limit: 5 })).toEqual({ total: 6, items: [] });
    expect(paginate(items, null, { offset: 0, limit: 0 })).toEqual({ total: 6, items: [] });
  });

  it('counts every match and keeps the window, in either order', () => {
    expect(paginate(items, even, { offset: 0, limit: 2 })).toEqual({ total: 3, items: [2, 4] });
    expect(paginate(items, even, { offset: 1, limit: 5 })).toEqual({ total: 3, items: [4, 6] });
    expect(paginate(items, even, { offset: 1, limit: 1, order: 'desc' })).toEqual({ total: 3, items: [4] });
    expect(paginate(items, even, { offset: 3, limit: 1 })).toEqual({ total: 3, items: [] });
    expect(paginate(items, even, { offset: 0, limit: 0 })).toEqual({ total: 3, items: [] });
  });
});
