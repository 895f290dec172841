/**
 * Analytics (docs/reference.md#beyond-the-spec, docs/fidelity.md#analytics): per-channel metrics with a time series, a
 * user's notification history, and idempotent event recording. Computed from stored
 * deliveries and recorded events of the calling app only.
 */
import type { AnalyticsEvent, ChannelAnalyticsQuery, RecordEventBody, RollupBody } from '../schemas/analytics.js';
import { CHANNEL_TYPES } from '../schemas/channels.js';
import { badRequest, notFound } from './errors.js';
import type { ChannelCatalog, AppClockSource, Ids, Store, TemplateCatalog } from './ports.js';
import { engagementRows, type EngagementRow } from './analytics-facts.js';
import { rollup } from './analytics-rollup.js';
import type { RollupResult } from '../schemas/responses.js';

const ALL = { offset: 0, limit: Number.MAX_SAFE_INTEGER };
const MAX_BUCKETS = 10_000;
const STEP_MS = { hourly: 3_600_000, daily: 86_400_000 } as const;

export interface Counts {
  delivered: number;
  viewed: number;
  clicked: number;
}

export interface ChannelMetrics extends Counts {
  channelType: string;
  timeSeries: (Counts & { date: string })[];
}

export interface UserInsights {
  userId: string;
  summary: Counts;
  notifications: {
    notificationId: string;
    templateName: string | null;
    channelType: string;
    delivered: boolean;
    viewed: boolean;
    clicked: boolean;
    deliveredAt: string | null;
    viewedAt: string | null;
    clickedAt: string | null;
  }[];
}

export interface AnalyticsServiceDeps {
  store: Store;
  templates: TemplateCatalog;
  channels: ChannelCatalog;
  clocks: AppClockSource;
  ids: Ids;
}

/** Bucket label: `YYYY-MM-DD` daily (docs/fidelity.md#analytics), the hour's ISO start hourly [decided]. */
const bucketOf = (iso: string, granularity: ChannelAnalyticsQuery['granularity']) =>
  granularity === 'daily' ? iso.slice(0, 10) : `${iso.slice(0, 13)}:00:00.000Z`;

const knownRef = (deps: AnalyticsServiceDeps, appId: string, ref: string): boolean =>
  deps.store.getCampaign(ref)?.appId === appId ||
  deps.store.queryNotifications({ appId, notificationId: ref }, { offset: 0, limit: 1 }).total > 0;

function templateNameOf(deps: AnalyticsServiceDeps, appId: string, row: EngagementRow): string | null {
  let templateRef = row.templateId;
  if (templateRef === null) {
    templateRef =
      deps.store.getCampaign(row.ref)?.templateId ??
      deps.store.queryNotifications({ appId, notificationId: row.ref }, ALL).items[0]?.templateId ??
      null;
  }
  if (templateRef === null) return null;
  return deps.templates.find(appId, templateRef)?.name ?? row.templateKey;
}

/** When the row's user was first sent its notification or campaign on the row's channel, if ever. */
function firstSentAt(deps: AnalyticsServiceDeps, appId: string, row: EngagementRow): string | null {
  let first: string | null = null;
  for (const ref of [{ notificationId: row.ref }, { campaignId: row.ref }]) {
    const filter = { appId, userId: row.userId, channel: row.channelType, status: 'sent', ...ref };
    for (const d of deps.store.queryDeliveries(filter, ALL).items)
      if (first === null || d.createdAt < first) first = d.createdAt;
  }
  return first;
}

/** The range's bucket labels, in order; a range upside down or of too many buckets is refused. */
function bucketLabels({ from, to, granularity }: ChannelAnalyticsQuery): string[] {
  if (from > to) throw badRequest('"from" is after "to".', { from: 'must not be after "to"' });
  const step = STEP_MS[granularity];
  const start = Math.floor(from / step) * step;
  if ((to - start) / step >= MAX_BUCKETS) {
    // Daily buckets are the widest: only an hourly range can be fixed by changing the granularity.
    const advice = granularity === 'hourly' ? 'narrow it or use daily granularity' : 'narrow it';
    throw badRequest(`The range holds more than ${MAX_BUCKETS} ${granularity} buckets; ${advice}.`, {
      to: `range too long for ${granularity} granularity (max ${MAX_BUCKETS} buckets)`,
    });
  }
  const labels: string[] = [];
  for (let t = start; t <= to; t += step) labels.push(bucketOf(new Date(t).toISOString(), granularity));
  return labels;
}

export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  return {
    recordEvent(appId: string, body: RecordEventBody): { success: true; eventId: string } {
      if (!knownRef(deps, appId, body.campaignId)) throw notFound('campaign or notification', body.campaignId);
      // Idempotent (docs/fidelity.md#analytics): the same eventType for the same user and campaign is kept once.
      const same = deps.store.findAnalyticsEvent(appId, body);
      if (same) return { success: true, eventId: same.id };
      const event: AnalyticsEvent = {
        id: `evt_${deps.ids.objectId()}`,
        appId,
        ...body,
        createdAt: deps.clocks.clockFor(appId).nowIso(),
      };
      deps.store.addAnalyticsEvent(event);
      return { success: true, eventId: event.id };
    },

    /** The app's recorded events in the range, counted; nothing changes (analytics-rollup.ts). */
    rollup: (appId: string, body: RollupBody): RollupResult => rollup(deps.store.listAnalyticsEvents(appId), body),

    user(appId: string, userId: string): UserInsights {
      const deliveries = deps.store.queryDeliveries({ appId, userId }, ALL).items;
      const events = deps.store.listUserAnalyticsEvents(appId, userId);
      const rows = engagementRows(deliveries, events).sort((a, b) =>
        a.firstAt < b.firstAt ? 1 : a.firstAt > b.firstAt ? -1 : 0,
      );
      const notifications = rows.map((row) => ({
        notificationId: row.ref,
        templateName: templateNameOf(deps, appId, row),
        channelType: row.channelType,
        delivered: row.deliveredAt !== null,
        viewed: row.viewedAt !== null,
        clicked: row.clickedAt !== null,
        deliveredAt: row.deliveredAt,
        viewedAt: row.viewedAt,
        clickedAt: row.clickedAt,
      }));
      const count = (k: 'delivered' | 'viewed' | 'clicked') => notifications.filter((n) => n[k]).length;
      return {
        userId,
        summary: { delivered: count('delivered'), viewed: count('viewed'), clicked: count('clicked') },
        notifications,
      };
    },

    channels(appId: string, query: ChannelAnalyticsQuery): ChannelMetrics[] {
      const { from, to, granularity } = query;
      const step = STEP_MS[granularity];
      const labels = bucketLabels(query);
      const fromIso = new Date(from).toISOString();
      const toIso = new Date(to).toISOString();
      const inRange = (at: string | null): at is string => at !== null && at >= fromIso && at <= toIso;
      const series = new Map<string, Map<string, Counts>>();
      const bump = (type: string, at: string, k: keyof Counts, by = 1) => {
        let byBucket = series.get(type);
        if (!byBucket)
          series.set(type, (byBucket = new Map(labels.map((l) => [l, { delivered: 0, viewed: 0, clicked: 0 }]))));
        byBucket.get(bucketOf(at, granularity))![k] += by;
      };
      // A user gets one delivery per notification or campaign, so the sent deliveries of each
      // channel type are its delivered rows, counted without building one (a million deliveries
      // built as rows held the event loop for seconds and took a gigabyte).
      const sent = deps.store.countDeliveriesByChannelAndTime({ appId, since: from, until: to }, step);
      for (const b of sent) if (b.sent > 0) bump(b.channel, new Date(b.start).toISOString(), 'delivered', b.sent);
      // Events then add what only they know, row by row: views, clicks, and deliveries the
      // emulator did not make or that a `delivered` event dates earlier.
      for (const row of engagementRows([], deps.store.listAnalyticsEvents(appId))) {
        if (inRange(row.viewedAt)) bump(row.channelType, row.viewedAt, 'viewed');
        if (inRange(row.clickedAt)) bump(row.channelType, row.clickedAt, 'clicked');
        if (row.deliveredAt === null) continue;
        const sentAt = firstSentAt(deps, appId, row);
        if (sentAt !== null && sentAt <= row.deliveredAt) continue; // already counted when sent
        if (inRange(sentAt)) bump(row.channelType, sentAt, 'delivered', -1);
        if (inRange(row.deliveredAt)) bump(row.channelType, row.deliveredAt, 'delivered');
      }
      // Listed: every type with activity in the range or with a channel in this app [decided].
      const configured = new Set<string>(deps.channels.list(appId).map((ch) => ch.type));
      const standard: readonly string[] = CHANNEL_TYPES;
      const types = [
        ...standard.filter((t) => series.has(t) || configured.has(t)),
        ...[...series.keys()].filter((t) => !standard.includes(t)),
      ];
      return types.map((channelType) => {
        const timeSeries = labels.map((date) => ({
          date,
          ...(series.get(channelType)?.get(date) ?? { delivered: 0, viewed: 0, clicked: 0 }),
        }));
        const sum = (k: keyof Counts) => timeSeries.reduce((n, b) => n + b[k], 0);
        return { channelType, delivered: sum('delivered'), viewed: sum('viewed'), clicked: sum('clicked'), timeSeries };
      });
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
