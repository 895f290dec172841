/**
 * The stream's filters (src/inspect/stream-filter.ts): the delivery filters of the deliveries
 * list and the request filters of the journal, read from a query as the route reads them.
 */
import { describe, expect, it } from 'vitest';
import type { EmulatorEvent } from '../../src/domain/ports.js';
import { streamFilter } from '../../src/inspect/stream-filter.js';
import type { Campaign, Delivery, JournalEntry, NotificationRecord } from '../../src/schemas/records.js';
import { StreamQuerySchema } from '../../src/schemas/control.js';

const delivery = (over: Partial<Delivery> = {}): EmulatorEvent => ({
  type: 'delivery',
  delivery: {
    id: 'd1',
    appId: 'shop',
    notificationId: 'n1',
    campaignId: null,
    userId: 'u1',
    templateId: 't1',
    templateKey: 'welcome',
    channels: ['push', 'in_app'],
    mode: 'realtime',
    title: null,
    tag: 'spring',
    variables: {},
    rendered: {},
    pushData: null,
    status: 'sent',
    failureReason: null,
    scenario: null,
    createdAt: '2030-01-01T10:00:00.000Z',
    ...over,
  },
});
const request = (over: Partial<JournalEntry> = {}): EmulatorEvent => ({
  type: 'request',
  entry: {
    id: 'r1',
    time: '2030-01-01T10:00:00.000Z',
    method: 'POST',
    path: '/api/notifications/send',
    query: '',
    appId: 'shop',
    status: 200,
    errorCode: null,
    scenario: null,
    rule: null,
    rules: [],
    requestHeaders: {},
    requestBody: '{"targets":["u1"]}',
    requestBodyTruncated: false,
    responseBody: '{}',
    responseBodyTruncated: false,
    durationMs: 1,
    ...over,
  },
});
const campaign = { type: 'campaign', campaign: { id: 'c1', appId: 'shop' } as Campaign } as EmulatorEvent;
const notification = {
  type: 'notification',
  notification: { appId: 'shop', notificationId: 'n1' } as NotificationRecord,
} as EmulatorEvent;

const filter = (query: Record<string, string>) => streamFilter(StreamQuerySchema.parse(query));

describe('streamFilter', () => {
  it('without filters lets every event through, and types narrows them', () => {
    const all = filter({});
    expect([delivery(), request(), campaign, notification].map(all)).toEqual([true, true, true, true]);
    expect([delivery(), request(), campaign].map(filter({ types: 'campaign,request' }))).toEqual([false, true, true]);
  });

  it('applies the delivery filters with the store matcher, and keeps only deliveries then', () => {
    const failedPush = filter({ status: 'failed', channel: 'push', templateKey: 'welcome' });
    expect(failedPush(delivery({ status: 'failed' }))).toBe(true);
    expect(failedPush(delivery())).toBe(false);
    expect(failedPush(delivery({ status: 'failed', channels: ['sms'] }))).toBe(false);
    expect(failedPush(delivery({ status: 'failed', templateKey: 'other' }))).toBe(false);
    expect([request(), campaign, notification].map(failedPush)).toEqual([false, false, false]);
    expect(filter({ tag: 'spring', mode: 'realtime' })(delivery())).toBe(true);
    expect(filter({ tag: 'autumn' })(delivery())).toBe(false);
    expect(filter({ notificationId: 'n2' })(delivery())).toBe(false);
  });

  it('applies the request filters with the journal predicate, and keeps only requests then', () => {
    const badSends = filter({ status: '400', path: '/api/notifications/send' });
    expect(badSends(request({ status: 400 }))).toBe(true);
    expect(badSends(request())).toBe(false);
    expect(badSends(delivery())).toBe(false);
    expect(filter({ method: 'post', bodyContains: 'u1' })(request())).toBe(true);
    expect(filter({ bodyContains: 'u9' })(request())).toBe(false);
    expect(filter({ scenario: 'flaky' })(request({ rules: [{ scenario: 'flaky', index: 1, rule: 'x' }] }))).toBe(true);
  });

  it('since and until keep deliveries and requests of that time only', () => {
    const window = filter({ since: '2030-01-01T09:00:00Z', until: '2030-01-01T10:00:00Z' });
    expect(window(delivery())).toBe(true);
    expect(window(request({ time: '2030-01-01T10:00:00.001Z' }))).toBe(false);
    expect(window(campaign)).toBe(false);
  });

  it('appId, campaignId and userId apply to every type as before', () => {
    expect(filter({ appId: 'bank' })(delivery())).toBe(false);
    expect(filter({ appId: 'shop' })(campaign)).toBe(true);
    expect(filter({ campaignId: 'c1' })(campaign)).toBe(true);
    expect(filter({ campaignId: 'c1' })(request({ path: '/api/campaigns/c1/send' }))).toBe(true);
    expect(filter({ campaignId: 'c1' })(delivery())).toBe(false);
    expect(filter({ userId: 'u1' })(delivery())).toBe(true);
    expect([request(), campaign].map(filter({ userId: 'u1' }))).toEqual([false, false]);
  });

  it('refuses a status that is neither a delivery status nor an HTTP status', () => {
    const result = StreamQuerySchema.safeParse({ status: 'pending' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('sent or failed (deliveries) or an HTTP status, 100');
    expect(StreamQuerySchema.safeParse({ status: '700' }).success).toBe(false);
  });
});
