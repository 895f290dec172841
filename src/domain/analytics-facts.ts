/**
 * The facts analytics are computed from: one row per (notification or campaign, user,
 * channel type), merged from stored deliveries and recorded events. Nothing is invented.
 */
import type { Delivery } from '../schemas/records.js';
import type { AnalyticsEvent } from '../schemas/analytics.js';

export interface EngagementRow {
  /** The notification id, or the campaign id for campaign deliveries (what events name as campaignId). */
  ref: string;
  userId: string;
  channelType: string;
  templateId: string | null;
  templateKey: string | null;
  deliveredAt: string | null;
  viewedAt: string | null;
  clickedAt: string | null;
  /** Sort key: the earliest time anything happened on this row. */
  firstAt: string;
}

const earliest = (a: string | null, b: string): string => (a === null || b < a ? b : a);

/**
 * A `sent` delivery counts as delivered on each of its channels [decided]; a recorded
 * `delivered` event marks it delivered too (once). `viewed`/`clicked` come only from events.
 */
export function engagementRows(deliveries: Iterable<Delivery>, events: Iterable<AnalyticsEvent>): EngagementRow[] {
  const rows = new Map<string, EngagementRow>();
  const rowFor = (ref: string, userId: string, channelType: string, at: string): EngagementRow => {
    const id = `${ref}\u0000${userId}\u0000${channelType}`;
    let row = rows.get(id);
    if (!row) {
      row = {
        ref,
        userId,
        channelType,
        templateId: null,
        templateKey: null,
        deliveredAt: null,
        viewedAt: null,
        clickedAt: null,
        firstAt: at,
      };
      rows.set(id, row);
    }
    row.firstAt = earliest(row.firstAt, at);
    return row;
  };
  for (const d of deliveries) {
    const ref = d.notificationId ?? d.campaignId ?? d.id;
    for (const channelType of d.channels) {
      const row = rowFor(ref, d.userId, channelType, d.createdAt);
      row.templateId = d.templateId;
      row.templateKey = d.templateKey;
      if (d.status === 'sent') row.deliveredAt = earliest(row.deliveredAt, d.createdAt);
    }
  }
  for (const e of events) {
    const row = rowFor(e.campaignId, e.userId, e.channelType, e.createdAt);
    if (e.eventType === 'delivered') row.deliveredAt = earliest(row.deliveredAt, e.createdAt);
    if (e.eventType === 'viewed') row.viewedAt = earliest(row.viewedAt, e.createdAt);
    if (e.eventType === 'clicked') row.clickedAt = earliest(row.clickedAt, e.createdAt);
  }
  return [...rows.values()];
}
