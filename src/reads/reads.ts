/**
 * The read facades, one per kind of record: the one way routes read records, for /__inspect,
 * the API's own reads and the live stream's filters alike. Each owns what its filter means
 * (the store port's query), which answers are kept (the memo) and when a read takes its turn
 * on the event loop; the routes see none of it.
 */
import { analyticsReads } from './analytics-reads.js';
import { appReads, type AppReadSources } from './app-reads.js';
import { campaignReads } from './campaign-reads.js';
import { deliveryReads, type DeliveryReadSources } from './delivery-reads.js';
import { createReadRoom, type ReadRoomSources } from './read-room.js';
import { journalReads, notificationReads } from './record-reads.js';
import { streamReads } from './stream-reads.js';
import type { AnalyticsService } from '../domain/analytics.js';
import type { CampaignService } from '../domain/campaigns.js';

export type ReadSources = ReadRoomSources &
  DeliveryReadSources &
  AppReadSources & { campaigns: CampaignService; analytics: AnalyticsService };

export function createReads(sources: ReadSources) {
  const room = createReadRoom(sources);
  return {
    deliveries: deliveryReads(room, sources),
    notifications: notificationReads(room, sources),
    journal: journalReads(room, sources),
    campaigns: campaignReads(room, sources.campaigns),
    analytics: analyticsReads(room, sources),
    apps: appReads(room, sources),
    stream: streamReads(sources),
  };
}

export type Reads = ReturnType<typeof createReads>;
