/**
 * The Store in memory: one part per kind of record (deliveries, notifications, campaigns
 * with their recipients, the journal, runtime resources, analytics events), each owning its
 * records and indexes in its own file, composed here. The lowdb store wraps this one and
 * persists its snapshot.
 */
import { LoopTurns } from '../platform/loop-turns.js';
import type { Store, StoreStats } from '../domain/ports.js';
import { createAnalyticsStore } from './analytics/analytics-store.js';
import { createAppStateStore } from './app-state/app-state-store.js';
import { createCampaignStore } from './campaigns/campaign-store.js';
import { createDeliveryStore } from './deliveries/delivery-store.js';
import { createJournalStore } from './journal/journal-store.js';
import { createNotificationStore } from './notifications/notification-store.js';
import { createResourceStore } from './app-state/resource-store.js';
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
  /**
   * Replaces every record with `data` (an imported trace, POST /__import): each kind is built
   * anew from it as from a data file, so ids, order and indexes are as the data gives them.
   */
  restore(data: StoreData): void;
  /** The store's turns on the event loop: its background slices take them, and the inspect reads too. */
  readonly turns: LoopTurns;
  /** A number every write changes (each kind's, clear, reset, restore): equal, the records are the same. */
  revision(): number;
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
  let revision = 0;
  const onChange = options.onChange;
  const changed = () => {
    revision++;
    onChange?.();
  };
  const turns = new LoopTurns();
  const partsOf = (initial: StoreData | undefined) => {
    const part = { initial, changed, turns };
    return {
      deliveries: createDeliveryStore(options.maxDeliveries ?? 1_000_000, part),
      notifications: createNotificationStore(options.maxNotifications ?? 100_000, part),
      campaigns: createCampaignStore(
        { maxCampaigns: options.maxCampaigns ?? 1_000, maxRecipients: options.maxRecipients ?? 1_000_000 },
        part,
      ),
      journal: createJournalStore(
        {
          maxJournal: options.maxJournal ?? 10_000,
          maxJournalBodyChars: options.maxJournalBodyChars ?? 16 * 1024 * 1024,
        },
        part,
      ),
      resources: createResourceStore(part),
      analytics: createAnalyticsStore(options.maxAnalyticsEvents ?? 1_000_000, part),
      appStates: createAppStateStore(part),
    };
  };
  let parts = partsOf(options.initial);
  /** What clear() and reset() go over. stats() and the snapshots spread the parts in the order of StoreData's
   * and StoreStats' keys, which the data file and /__stats have always had. */
  const kinds = () => Object.values(parts);
  /** Every kind's `what()`, spread in that order. */
  const merged = (what: 'stats' | 'persistable' | 'snapshot'): object =>
    Object.assign({}, ...kinds().map((kind) => kind[what]()));
  const initialApps = appsIn(options.initial);

  /** Every kind's port methods in one object (the store offers them as they are: no call in between). */
  const portsOf = (p: typeof parts) => ({
    ...p.deliveries.port,
    ...p.notifications.port,
    ...p.campaigns.port,
    ...p.journal.port,
    ...p.resources.port,
    ...p.analytics.port,
    ...p.appStates.port,
  });

  const store: MemoryStore = {
    ...portsOf(parts),
    clear(appId) {
      for (const kind of kinds()) kind.clear(appId);
      changed();
    },
    reset(appId) {
      for (const kind of kinds()) kind.reset(appId);
      changed();
    },
    restore(data) {
      parts = partsOf(data);
      // The new parts' methods in place of the old: callers keep this object and reach the new records.
      Object.assign(store, portsOf(parts));
      changed();
    },
    appsInInitialData: () => initialApps,
    turns,
    revision: () => revision,
    stats: () => merged('stats') as StoreStats,
    async flush() {},
    async close() {},
    persistable: () => merged('persistable') as StoreSnapshot,
    snapshot: () => merged('snapshot') as StoreData,
  };
  return store;
}
