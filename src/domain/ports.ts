/**
 * The interfaces the domain needs from the outside world. Concrete clocks, stores,
 * catalogs and scenario engines implement them; the domain only sees these.
 */
import type { Campaign, Delivery, JournalEntry, NotificationRecord, Recipient, Template } from '../schemas/records.js';
import type { AnalyticsEvent } from '../schemas/analytics.js';
import type { Channel } from '../schemas/channels.js';
import type { TemplateChannelRecord } from '../schemas/template-channels.js';

export interface Clock {
  /** Epoch milliseconds on the emulator's clock (real or manual). */
  now(): number;
  /** `now()` as ISO 8601 text (what toISOString gives), the form every record stores. */
  nowIso(): string;
  /** Calls `fn` once the clock reaches `atMs`; at once on a manual advance past it. Returns a cancel function. */
  schedule(atMs: number, fn: () => void): () => void;
}

/** Ids reserved together, named by index when asked. */
export interface IdRange {
  /** The id at `index` of the range. */
  at(index: number): string;
  /** The index `id` has in the range, or -1, found without naming every id of the range. */
  indexOf(id: string): number;
}

export interface Ids {
  /** 24 lowercase hex characters, ObjectId-shaped (timestamp + random + counter). */
  objectId(): string;
  /** Reserves `count` consecutive ids (what `count` objectId() calls would give) and names them by index, lazily. */
  objectIds(count: number): IdRange;
  /** `notif_` + 24 hex. */
  notificationId(): string;
}

export interface RandomSource {
  /** Uniform in [0, 1), from the instance's seeded generator. */
  next(): number;
}

export interface Page {
  limit: number;
  offset: number;
  /** `desc`: newest first, `offset` counted from the newest end. @default "asc" */
  order?: 'asc' | 'desc';
}

export interface ListResult<T> {
  total: number;
  items: T[];
}

export interface DeliveryFilter {
  appId?: string;
  userId?: string;
  templateKey?: string;
  templateId?: string;
  campaignId?: string;
  notificationId?: string;
  mode?: string;
  channel?: string;
  status?: string;
  tag?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, inclusive. */
  until?: number;
}

export interface NotificationFilter {
  appId?: string;
  templateKey?: string;
  notificationId?: string;
  mode?: string;
  tag?: string;
  since?: number;
  until?: number;
}

export interface JournalFilter {
  appId?: string;
  method?: string;
  path?: string;
  status?: number;
  errorCode?: string;
  /** Matches an entry when any of its applied rules belongs to this scenario. */
  scenario?: string;
  /** Substring of the request body or the response body (case-sensitive). */
  bodyContains?: string;
  since?: number;
  until?: number;
}

export interface CampaignFilter {
  appId?: string;
  status?: string;
}

/** Deliveries created in [start, start + bucketMs) on the emulator clock, by status. */
export interface DeliveryBucket {
  /** Epoch ms of the bucket's start. */
  start: number;
  sent: number;
  failed: number;
}

/** A DeliveryBucket of the deliveries that went through one channel type. */
export interface ChannelDeliveryBucket extends DeliveryBucket {
  channel: string;
}

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

/** The fields every delivery of one send shares, named as on Delivery (filters read either). */
export type SharedDeliveryFields = Pick<
  Delivery,
  | 'appId'
  | 'notificationId'
  | 'campaignId'
  | 'templateId'
  | 'templateKey'
  | 'channels'
  | 'mode'
  | 'title'
  | 'tag'
  | 'pushData'
  | 'createdAt'
>;

/** The content a template renders for one set of variables: a fresh object per call. */
export type RenderContent = (variables: Record<string, unknown>) => Record<string, unknown>;

/** One value for every user of a batch, or one per user (in the order of its user ids). */
export type PerUser<T> = { readonly all: T } | { readonly each: readonly T[] };

/** How a delivery failed: its record's `failureReason` (never null here) and `scenario`. */
export interface DeliveryFailureMark {
  reason: NonNullable<Delivery['failureReason']>;
  scenario: Delivery['scenario'];
}

/** The deliveries of one send (or one chunk of a campaign), as plain data. */
export interface DeliveryBatch {
  shared: SharedDeliveryFields;
  userIds: readonly string[];
  variables: PerUser<Record<string, unknown>>;
  /**
   * A delivery's content from its variables: the template's content as it was at the send,
   * and pure, so the store may keep this and render when a delivery is read (deliveries.ts).
   */
  render: RenderContent;
  /** Failed deliveries by index into userIds; every other one was sent. */
  failures: ReadonlyMap<number, DeliveryFailureMark>;
}

/** A stored batch read back by index: its delivery ids, and each delivery as a record. */
export interface StoredDeliveries {
  readonly length: number;
  idAt(index: number): string;
  at(index: number): Delivery;
}

/** One storage interface, implemented in memory and (persisted) over lowdb. */
export interface Store {
  /**
   * Stores a batch; its deliveries get ids from `ids`, in user order (what one objectId()
   * call per delivery would give). How the batch is held is the store's business.
   */
  addDeliveries(batch: DeliveryBatch, ids: Ids): StoredDeliveries;
  queryDeliveries(filter: DeliveryFilter, page: Page): ListResult<Delivery>;
  countDeliveries(filter: DeliveryFilter): number;
  /** One delivery by its id (newest first scan; undefined when unknown or dropped by the cap). */
  getDelivery(id: string): Delivery | undefined;
  /** Matching deliveries counted per time bucket (`bucketMs` wide, from the epoch) and status. */
  countDeliveriesByTime(filter: DeliveryFilter, bucketMs: number): DeliveryBucket[];
  /** The same per channel type a delivery went through (one that went through two counts in both). */
  countDeliveriesByChannelAndTime(filter: DeliveryFilter, bucketMs: number): ChannelDeliveryBucket[];

  addNotification(record: NotificationRecord): void;
  queryNotifications(filter: NotificationFilter, page: Page): ListResult<NotificationRecord>;

  addCampaign(campaign: Campaign): void;
  getCampaign(id: string): Campaign | undefined;
  updateCampaign(id: string, patch: Partial<Campaign>): Campaign;
  listCampaigns(filter: CampaignFilter): Campaign[];

  addRecipients(campaignId: string, recipients: Recipient[]): void;
  hasRecipient(campaignId: string, userId: string): boolean;
  recipients(campaignId: string): readonly Recipient[];
  listRecipients(campaignId: string, filter: { status?: string }, page: Page): ListResult<Recipient>;
  updateRecipient(campaignId: string, recipientId: string, patch: Partial<Recipient>): void;

  addJournal(entry: JournalEntry): void;
  queryJournal(filter: JournalFilter, page: Page): ListResult<JournalEntry>;
  getJournalEntry(id: string): JournalEntry | undefined;

  listRuntimeTemplates(): Template[];
  /** Keyed by (appId, id): an app's override of a shared fixture template keeps the fixture's id. */
  putRuntimeTemplate(template: Template): void;
  /** Deletes the runtime template `id` of `appId` (every app's copy when appId is omitted). */
  deleteRuntimeTemplate(id: string, appId?: string | null): boolean;

  /**
   * The app's own channels (docs/reference.md#beyond-the-spec), keyed by (appId, id); kept by
   * clear() like runtime templates.
   */
  listChannels(appId: string): Channel[];
  getChannel(appId: string, id: string): Channel | undefined;
  putChannel(channel: Channel): void;

  /** Template-channel rows of one app's template, in creation order; kept by clear() like channels. */
  listTemplateChannels(appId: string, templateId: string): readonly TemplateChannelRecord[];
  getTemplateChannel(appId: string, templateId: string, channelId: string): TemplateChannelRecord | undefined;
  /** Inserts or replaces the row of (appId, templateId, channelId); a replaced row keeps its place. */
  putTemplateChannel(row: TemplateChannelRecord): void;
  /** Deletes every row of the app's template; returns how many there were. */
  deleteTemplateChannels(appId: string, templateId: string): number;

  /** Recorded analytics events (POST /api/analytics/events), oldest first; cleared by clear(). */
  addAnalyticsEvent(event: AnalyticsEvent): void;
  listAnalyticsEvents(appId: string): readonly AnalyticsEvent[];
  /** The app's event of this type for this user and campaign (or notification), if one was recorded. */
  findAnalyticsEvent(
    appId: string,
    event: Pick<AnalyticsEvent, 'campaignId' | 'userId' | 'eventType'>,
  ): AnalyticsEvent | undefined;

  /** Clears deliveries, notifications, campaigns (with recipients) and the journal; of one app when given. */
  clear(appId?: string): void;
  /**
   * Back to an empty store (POST /__reset): clear() plus runtime templates, channels,
   * template-channel rows and the dropped-deliveries count; of one app when given (its
   * runtime templates, channels and rows too).
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

export interface TemplateCatalog {
  /** By `id` or `key`, as visible to `appId` (shared templates plus the app's own). */
  find(appId: string, ref: string): Template | undefined;
  findByKey(appId: string, key: string): Template | undefined;
  findById(appId: string, id: string): Template | undefined;
  list(appId?: string): Template[];
  count(): number;
  /** Where the shared templates come from (e.g. "7 template(s) from /x/fixtures/templates"), for 404 messages. */
  readonly origin?: string;
}

/** A channel from fixtures/channels.json: `appId` null = every app sees it. */
export type FixtureChannel = Omit<Channel, 'appId'> & { appId: string | null };

/** Channels as an app sees them: shared fixture channels (with the app's id) plus its own. */
export interface ChannelCatalog {
  /** Fixture channels first (an app's copy in place of the fixture), then the app's own in creation order. */
  list(appId: string): Channel[];
  /** By id, then by key. */
  find(appId: string, ref: string): Channel | undefined;
}

export type EmulatorEvent =
  | { type: 'delivery'; delivery: Delivery }
  | { type: 'notification'; notification: NotificationRecord }
  | { type: 'campaign'; campaign: Campaign }
  | { type: 'request'; entry: JournalEntry };

export interface Events {
  emit(event: EmulatorEvent): void;
  /** False when nobody listens: a 10,000-target batch then skips building 10,000 event payloads. */
  hasSubscribers(): boolean;
  subscribe(listener: (event: EmulatorEvent) => void): () => void;
}

export interface DeliveryFacts {
  appId: string;
  userId: string;
  templateKey: string;
  campaignId: string | null;
}

/** A failure a scenario decided: a DeliveryFailureMark that always names its scenario. */
export interface DeliveryFailure extends DeliveryFailureMark {
  scenario: NonNullable<Delivery['scenario']>;
}

/** Asked once per recipient: should this delivery fail, and because of which scenario? */
export interface DeliveryFaultPolicy {
  (facts: DeliveryFacts): DeliveryFailure | null;
  /**
   * True when no rule can fail a delivery now, so a send need not ask per recipient (for a
   * 10,000-target batch: 10,000 calls and fact objects saved). Absent: always ask.
   */
  readonly idle?: () => boolean;
}

export const NO_DELIVERY_FAULTS: DeliveryFaultPolicy = Object.assign(() => null, { idle: () => true });

/** How background work yields: injected so the domain needs no timers of its own. */
export interface CampaignRuntime {
  /** Runs `fn` on a later turn of the event loop (setImmediate on Node). */
  defer(fn: () => void): void;
  /** Monotonic milliseconds, for the per-chunk time budget. */
  elapsed(): number;
}

/** What the sending services (one-call sends, campaigns) are built from. */
export interface SendDeps {
  store: Store;
  templates: TemplateCatalog;
  channels: ChannelCatalog;
  clock: Clock;
  ids: Ids;
  events: Events;
}

/** What the campaign modules (service, recipients, runner) are built from. */
export interface CampaignDeps extends SendDeps {
  runtime: CampaignRuntime;
  /** Work per chunk before yielding to the event loop. @default 5 */
  chunkBudgetMs?: number;
}
