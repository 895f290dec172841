/**
 * The engagement facts analytics are counted from (src/domain/analytics-facts.ts): one row per
 * notification (or campaign), user and channel type, each moment the earliest one seen.
 */
import { describe, expect, it } from 'vitest';
import { engagementRows } from '../../src/domain/analytics-facts.js';
import type { Delivery } from '../../src/schemas/records.js';
import type { AnalyticsEvent } from '../../src/schemas/analytics.js';

const at = (minute: number) => `2030-01-01T00:0${minute}:00.000Z`;
const delivery = (over: Partial<Delivery>): Delivery =>
  ({
    id: 'd1',
    notificationId: 'n1',
    campaignId: null,
    userId: 'u1',
    templateId: 't1',
    templateKey: 'welcome',
    channels: ['in_app'],
    status: 'sent',
    createdAt: at(2),
    ...over,
  }) as Delivery;
const event = (eventType: AnalyticsEvent['eventType'], minute: number, over: Partial<AnalyticsEvent> = {}) =>
  ({
    id: `e${minute}`,
    appId: 'app',
    campaignId: 'n1',
    userId: 'u1',
    channelType: 'in_app',
    eventType,
    createdAt: at(minute),
    ...over,
  }) as AnalyticsEvent;

describe('engagementRows', () => {
  it('makes a row per channel type of a delivery, delivered only when sent, at the earliest moment', () => {
    const rows = engagementRows(
      [delivery({ channels: ['in_app', 'push'] }), delivery({ id: 'd2', status: 'failed', createdAt: at(1) })],
      [],
    );
    expect(rows).toEqual([
      {
        ref: 'n1',
        userId: 'u1',
        channelType: 'in_app',
        templateId: 't1',
        templateKey: 'welcome',
        deliveredAt: at(2),
        viewedAt: null,
        clickedAt: null,
        firstAt: at(1),
      },
      expect.objectContaining({ channelType: 'push', deliveredAt: at(2), firstAt: at(2) }),
    ]);
  });

  it('keys a delivery by its notification, else its campaign, else itself', () => {
    const rows = engagementRows(
      [
        delivery({}),
        delivery({ notificationId: null, campaignId: 'c1' }),
        delivery({ id: 'd3', notificationId: null }),
      ],
      [],
    );
    expect(rows.map((r) => r.ref)).toEqual(['n1', 'c1', 'd3']);
  });

  it('adds each event to its row, keeping the earliest of each kind', () => {
    const [row] = engagementRows(
      [delivery({ createdAt: at(3) })],
      [event('delivered', 5), event('delivered', 2), event('viewed', 7), event('viewed', 6), event('clicked', 8)],
    );
    expect(row).toMatchObject({ deliveredAt: at(2), viewedAt: at(6), clickedAt: at(8), firstAt: at(2) });
  });

  it('makes a row of its own for an event without a delivery, and keeps users and channels apart', () => {
    const rows = engagementRows(
      [delivery({})],
      [event('viewed', 4, { userId: 'u2' }), event('clicked', 5, { channelType: 'push' })],
    );
    expect(rows.slice(1)).toEqual([
      {
        ref: 'n1',
        userId: 'u2',
        channelType: 'in_app',
        templateId: null,
        templateKey: null,
        deliveredAt: null,
        viewedAt: at(4),
        clickedAt: null,
        firstAt: at(4),
      },
      expect.objectContaining({ userId: 'u1', channelType: 'push', clickedAt: at(5), viewedAt: null }),
    ]);
  });
});
