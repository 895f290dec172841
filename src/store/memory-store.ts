/**
 * The Store in memory: one part per kind of record (deliveries, notifications, campaigns
 * with their recipients, the journal, runtime resources, analytics events), each owning its
 * records and indexes in its own file, composed here. The lowdb store wraps this one and
 * persists its snapshot.
 */
import type { Store } from '../domain/ports.js';
import { createAnalyticsStore } from './analytics-store.js';
import { createAppStateStore } from './app-state-store.js';
import { createCampaignStore } from './campaign-store.js';
import { createDeliveryStore } from './delivery-store.js';
import { createJournalStore } from './journal-store.js';
import { createNotificationStore } from './notification-store.js';
import { createResourceStore } from './resource-store.js';
import type { RetentionLimits, StoreData, StoreSnapshot } from './store-data.js';

export interface MemoryStoreOptions extends RetentionLimits {
  /** Journal request + response body text kept in all (UTF-16 units; oldest entries dropped first). @default 16 MiB */
  maxJournalBodyChars?: number;
  initial?: StoreData;
  /** Called after every mutation (the lowdb store schedules a write). */
  onChange?: () => void;
}

export interface MemoryStore extends Store {
  snapshot(): StoreData;
  /**
   * What snapshot() holds, without copying records: lists of references, deliveries built as
   * read. It stays the state of the moment it was taken while a write reads it over many
   * turns, because no stored record is changed in place (an update stores a new one).
   */
  persistable(): StoreSnapshot;
}

/** The records of a data file that name the apps open mode remembers (appsInInitialData). */
function appsIn(data: StoreData | undefined): readonly string[] {
  if (!data) return [];
  const owners = [
    data.notifications,
    data.campaigns,
    data.templates,
    data.channels ?? [],
    data.analyticsEvents ?? [],
    data.appStates ?? [],
  ];
  const apps = new Set<string>();
  for (const records of owners) for (const { appId } of records) if (appId) apps.add(appId);
  return [...apps];
}

export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const changed = options.onChange ?? (() => {});
  const part = { initial: options.initial, changed };
  const deliveries = createDeliveryStore(options.maxDeliveries ?? 1_000_000, part);
  const notifications = createNotificationStore(options.maxNotifications ?? 100_000, part);
  const campaigns = createCampaignStore(
    { maxCampaigns: options.maxCampaigns ?? 1_000, maxRecipients: options.maxRecipients ?? 1_000_000 },
    part,
  );
  const journal = createJournalStore(
    { maxJournal: options.maxJournal ?? 10_000, maxJournalBodyChars: options.maxJournalBodyChars ?? 16 * 1024 * 1024 },
    part,
  );
  const resources = createResourceStore(part);
  const analytics = createAnalyticsStore(options.maxAnalyticsEvents ?? 1_000_000, part);
  const appStates = createAppStateStore(part);
  /** What clear() and reset() go over. stats() and the snapshots spread the parts in the order of StoreData's
   * and StoreStats' keys, which the data file and /__stats have always had. */
  const kinds = [deliveries, notifications, campaigns, journal, resources, analytics, appStates];
  const initialApps = appsIn(options.initial);

  return {
    ...deliveries.port,
    ...notifications.port,
    ...campaigns.port,
    ...journal.port,
    ...resources.port,
    ...analytics.port,
    ...appStates.port,
    clear(appId) {
      for (const kind of kinds) kind.clear(appId);
      changed();
    },
    reset(appId) {
      for (const kind of kinds) kind.reset(appId);
      changed();
    },
    appsInInitialData: () => initialApps,
    stats: () => ({
      ...deliveries.stats(),
      ...notifications.stats(),
      ...campaigns.stats(),
      ...journal.stats(),
      ...analytics.stats(),
    }),
    async flush() {},
    async close() {},
    persistable: () => ({
      ...deliveries.persistable(),
      ...notifications.persistable(),
      ...campaigns.persistable(),
      ...journal.persistable(),
      ...resources.persistable(),
      ...analytics.persistable(),
      ...appStates.persistable(),
    }),
    snapshot: () => ({
      ...deliveries.snapshot(),
      ...notifications.snapshot(),
      ...campaigns.snapshot(),
      ...journal.snapshot(),
      ...resources.snapshot(),
      ...analytics.snapshot(),
      ...appStates.snapshot(),
    }),
  };
}
