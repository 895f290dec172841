/**
 * What the store holds as plain JSON (the data file's shape), and what the composed memory
 * store asks of the part that keeps each kind of record.
 */
import type { LoopTurns } from '../platform/loop-turns.js';
import type {
  Campaign,
  CampaignUpload,
  Delivery,
  JournalEntry,
  NotificationRecord,
  Recipient,
  Template,
} from '../schemas/records.js';
import type { AnalyticsEvent } from '../schemas/analytics.js';
import type { Channel } from '../schemas/channels.js';
import type { TemplateChannelRecord } from '../schemas/template-channels.js';
import type { AppState, StoreStats } from '../domain/ports.js';

/** Everything the store holds, as plain JSON (what the data file contains). */
export interface StoreData {
  deliveries: Delivery[];
  droppedDeliveries: number;
  notifications: NotificationRecord[];
  campaigns: Campaign[];
  recipients: Recipient[];
  /** Each campaign's last accepted CSV upload. */
  campaignUploads: CampaignUpload[];
  journal: JournalEntry[];
  templates: Template[];
  channels: Channel[];
  templateChannels: TemplateChannelRecord[];
  analyticsEvents: AnalyticsEvent[];
  /** Each app's own clock and active scenario set (older files lack it). */
  appStates: AppState[];
}

export const emptyStoreData = (): StoreData => ({
  deliveries: [],
  droppedDeliveries: 0,
  notifications: [],
  campaigns: [],
  recipients: [],
  campaignUploads: [],
  journal: [],
  templates: [],
  channels: [],
  templateChannels: [],
  analyticsEvents: [],
  appStates: [],
});

/** StoreData with its lists as iterables: references taken now, serialised later (lowdb-store.ts). */
export type StoreSnapshot = { [K in keyof StoreData]: StoreData[K] extends (infer T)[] ? Iterable<T> : StoreData[K] };

/** Retention caps: past each, the oldest records of that kind are dropped and counted (stats()). */
export interface RetentionLimits {
  /** @default 1_000_000 */
  maxDeliveries?: number;
  /** @default 100_000 */
  maxNotifications?: number;
  /** Journal entries kept (oldest dropped first). @default 10_000 */
  maxJournal?: number;
  /** Campaigns with their recipients; a sending or scheduled campaign is never dropped. @default 1_000 */
  maxCampaigns?: number;
  /** Recipients of all campaigns together: past it the oldest campaigns are dropped, whole. @default 1_000_000 */
  maxRecipients?: number;
  /** Recorded analytics events (oldest dropped first). @default 1_000_000 */
  maxAnalyticsEvents?: number;
}

/**
 * The part of the memory store that owns one kind of record and its indexes: the kind's
 * port (whose methods the composed store offers as they are) and what the composed store
 * does to every kind at once. Each part is built from its slice of the initial data and
 * calls `changed` after each of its writes.
 */
export interface RecordKind<Port, Data extends keyof StoreData, Stats extends keyof StoreStats = never> {
  readonly port: Port;
  /** Drops what clear() drops of this kind: every record, or one app's. */
  clear(appId: string | undefined): void;
  /** Drops what reset() drops: what clear() does, and with no app also the counts of dropped records. */
  reset(appId: string | undefined): void;
  stats(): Pick<StoreStats, Stats>;
  /** The kind's records as plain JSON. */
  snapshot(): Pick<StoreData, Data>;
  /**
   * The same without copying records (lists of references, deliveries built as read). It
   * stays the state of the moment it was taken while a write reads it over many turns,
   * because no stored record is changed in place (an update stores a new one).
   */
  persistable(): Pick<StoreSnapshot, Data>;
}

/** What every part's factory is given. */
export interface KindOptions<Data extends keyof StoreData> {
  /** The kind's records from the data file (older files may lack a list: read with ?? []). */
  initial?: Partial<Pick<StoreData, Data>>;
  /** Called after every write (the lowdb store schedules a write of the file). */
  changed: () => void;
  /** The store's turns on the event loop, shared by every kind's background slices. */
  turns: LoopTurns;
}
