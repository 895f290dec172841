/**
 * The Store: one port per kind of record (a file each beside this one), composed, plus
 * what applies to all of them at once. Implemented in memory and (persisted) over lowdb.
 */
import type { AnalyticsStore } from './analytics.js';
import type { AppStateStore } from './app-states.js';
import type { CampaignStore } from './campaigns.js';
import type { DeliveryStore } from './deliveries.js';
import type { JournalStore } from './journal.js';
import type { NotificationStore } from './notifications.js';
import type { ResourceStore } from './resources.js';

/** How many records of each kind the store holds, and how many its retention caps have dropped. */
export interface StoreStats {
  deliveries: number;
  droppedDeliveries: number;
  notifications: number;
  droppedNotifications: number;
  campaigns: number;
  droppedCampaigns: number;
  recipients: number;
  droppedRecipients: number;
  journal: number;
  droppedJournal: number;
  analyticsEvents: number;
  droppedAnalyticsEvents: number;
}

/** What the store does across every kind of record. */
export interface StoreLifecycle {
  /**
   * Clears deliveries, notifications, campaigns (with recipients), the journal and analytics
   * events; of one app when given. Runtime resources stay.
   */
  clear(appId?: string): void;
  /**
   * Back to an empty store (POST /__reset): clear() plus runtime templates, channels,
   * template-channel rows and the dropped counts; of one app when given (its runtime
   * templates, channels and rows too).
   */
  reset(appId?: string): void;
  stats(): StoreStats;
  /**
   * The apps whose records the store held when it was opened (a data file's notifications,
   * campaigns, channels, templates and analytics events): open mode remembers them after a
   * restart as it did before.
   */
  appsInInitialData(): readonly string[];
  /** Persists pending writes (no-op in memory). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface Store
  extends
    DeliveryStore,
    NotificationStore,
    CampaignStore,
    JournalStore,
    ResourceStore,
    AnalyticsStore,
    AppStateStore,
    StoreLifecycle {}
