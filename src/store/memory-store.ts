/**
 * The Store in memory: deliveries (indexed, capped: delivery-log.ts), notifications,
 * campaigns with their recipients, the journal and runtime resources. The lowdb store
 * wraps this one and persists its snapshot.
 */
import type { Campaign, Delivery, JournalEntry, NotificationRecord, Recipient, Template } from '../schemas/records.js';
import type { AnalyticsEvent } from '../schemas/analytics.js';
import type { Channel } from '../schemas/channels.js';
import type { TemplateChannelRecord } from '../schemas/template-channels.js';
import type { CampaignFilter, Page, Store, StoreStats } from '../domain/ports.js';
import { Deque } from './deque.js';
import { isFiltered, journalPredicate, paginate } from './filters.js';
import { createDeliveryLog } from './delivery-log.js';
import { runOf, storedView } from './delivery-run.js';
import { createNotificationLog } from './notification-log.js';

/** Everything the store holds, as plain JSON (what the data file contains). */
export interface StoreData {
  deliveries: Delivery[];
  droppedDeliveries: number;
  notifications: NotificationRecord[];
  campaigns: Campaign[];
  recipients: Recipient[];
  journal: JournalEntry[];
  templates: Template[];
  channels: Channel[];
  templateChannels: TemplateChannelRecord[];
  analyticsEvents: AnalyticsEvent[];
}

export const emptyStoreData = (): StoreData => ({
  deliveries: [],
  droppedDeliveries: 0,
  notifications: [],
  campaigns: [],
  recipients: [],
  journal: [],
  templates: [],
  channels: [],
  templateChannels: [],
  analyticsEvents: [],
});

/** Retention caps: past each, the oldest records of that kind are dropped and counted (stats()). */
export interface RetentionLimits {
  /** @default 1_000_000 */
  maxDeliveries?: number;
  /** @default 200_000 */
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

export interface MemoryStoreOptions extends RetentionLimits {
  /** Journal request + response body text kept in all (UTF-16 units; oldest entries dropped first). @default 64 MiB */
  maxJournalBodyChars?: number;
  initial?: StoreData;
  /** Called after every mutation (the lowdb store schedules a write). */
  onChange?: () => void;
}

/** StoreData with its lists as iterables: references taken now, serialised later (lowdb-store.ts). */
export type StoreSnapshot = { [K in keyof StoreData]: StoreData[K] extends (infer T)[] ? Iterable<T> : StoreData[K] };

const DEFAULT_MAX_JOURNAL = 10_000;

const bodyChars = (e: JournalEntry) => (e.requestBody?.length ?? 0) + (e.responseBody?.length ?? 0);

/** An entry from an older data file gets the fields added since. */
const normaliseJournalEntry = (e: JournalEntry): JournalEntry => ({
  ...e,
  query: e.query ?? '',
  rules: e.rules ?? (e.scenario !== null && e.rule !== null ? [{ scenario: e.scenario, index: 0, rule: e.rule }] : []),
  requestHeaders: e.requestHeaders ?? {},
  requestBody: e.requestBody ?? null,
  requestBodyTruncated: e.requestBodyTruncated ?? false,
  responseBody: e.responseBody ?? null,
  responseBodyTruncated: e.responseBodyTruncated ?? false,
});

export interface MemoryStore extends Store {
  snapshot(): StoreData;
  /**
   * What snapshot() holds, without copying records: lists of references, deliveries built as
   * read. It stays the state of the moment it was taken while a write reads it over many
   * turns, because no stored record is changed in place (an update stores a new one).
   */
  persistable(): StoreSnapshot;
}

interface CampaignRecipients {
  list: Recipient[];
  /** The users on the list, built on the first hasRecipient: an upload of 100,000 rows stores them without
   * 100,000 set insertions in the one step that cannot yield (bench/: longest stall). */
  userIds: Set<string> | null;
  /** id → position in list, built on the first lookup the in-order guess misses: uploads skip it. */
  byId: Map<string, number> | null;
  /** Where the next lookup by id guesses first: a campaign send updates recipients in list order. */
  next: number;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxDeliveries = options.maxDeliveries ?? 1_000_000;
  const maxNotifications = options.maxNotifications ?? 200_000;
  const maxJournal = options.maxJournal ?? DEFAULT_MAX_JOURNAL;
  const maxJournalBodyChars = options.maxJournalBodyChars ?? 64 * 1024 * 1024;
  const maxCampaigns = options.maxCampaigns ?? 1_000;
  const maxRecipients = options.maxRecipients ?? 1_000_000;
  const maxAnalyticsEvents = options.maxAnalyticsEvents ?? 1_000_000;
  const dropped = { journal: 0, campaigns: 0, recipients: 0, analyticsEvents: 0 };
  /** Recipients of every campaign together (kept as they change, for the cap). */
  let recipientTotal = 0;
  const changed = options.onChange ?? (() => {});

  let deliveries = createDeliveryLog(maxDeliveries);
  let notifications = createNotificationLog(maxNotifications);
  let journal = new Deque<JournalEntry>();
  let journalBodyChars = 0;
  const campaigns = new Map<string, Campaign>();
  const recipientsByCampaign = new Map<string, CampaignRecipients>();
  // Keyed by appId + id: an app's override of a shared fixture keeps the fixture's id.
  const templates = new Map<string, Template>();
  const appKey = (appId: string | null, id: string) => `${appId ?? ''}\u0000${id}`;
  const channels = new Map<string, Channel>();
  // (appId, templateId) → channelId → row; a send asks for one template's rows.
  const templateChannels = new Map<string, Map<string, TemplateChannelRecord>>();
  const rowsKey = (appId: string, templateId: string) => `${appId}\u0000${templateId}`;
  const NO_ROWS: readonly TemplateChannelRecord[] = [];
  let analyticsEvents = new Deque<AnalyticsEvent>();
  /** Each event by app, campaign, user and type: recording one checks for its twin without a scan. */
  let eventsByKey = new Map<string, AnalyticsEvent>();
  const eventKey = (appId: string, e: Pick<AnalyticsEvent, 'campaignId' | 'userId' | 'eventType'>) =>
    `${appId}\u0000${e.campaignId}\u0000${e.userId}\u0000${e.eventType}`;
  /** Keeps `events` (oldest first) within the cap, and their index. */
  const setEvents = (events: readonly AnalyticsEvent[]) => {
    analyticsEvents = new Deque();
    eventsByKey = new Map();
    for (const e of events) pushEvent(e);
  };
  function pushEvent(event: AnalyticsEvent): void {
    analyticsEvents.push(event);
    eventsByKey.set(eventKey(event.appId, event), event);
    while (analyticsEvents.length > maxAnalyticsEvents) {
      const oldest = analyticsEvents.shift()!;
      const key = eventKey(oldest.appId, oldest);
      if (eventsByKey.get(key) === oldest) eventsByKey.delete(key);
      dropped.analyticsEvents++;
    }
  }

  function recipientsOf(campaignId: string): CampaignRecipients {
    let entry = recipientsByCampaign.get(campaignId);
    if (!entry) recipientsByCampaign.set(campaignId, (entry = { list: [], userIds: null, byId: null, next: 0 }));
    return entry;
  }

  /** A copy of the list into an empty campaign (a 100,000-row upload: bench/), its indexes left to be built
   * on first use; else one push per recipient, with the indexes already built kept up to date. */
  function addRecipientsQuietly(campaignId: string, list: Recipient[]): void {
    const entry = recipientsOf(campaignId);
    recipientTotal += list.length;
    if (entry.list.length === 0) {
      entry.list = list.slice();
      entry.userIds = entry.byId = null;
      entry.next = 0;
      return;
    }
    const { byId, userIds } = entry;
    for (const r of list) {
      if (byId !== null) byId.set(r.id, entry.list.length);
      entry.list.push(r);
      userIds?.add(r.userId);
    }
  }

  function removeCampaign(id: string): number {
    const gone = recipientsByCampaign.get(id)?.list.length ?? 0;
    campaigns.delete(id);
    recipientsByCampaign.delete(id);
    recipientTotal -= gone;
    return gone;
  }

  /**
   * Drops the oldest campaigns (with their recipients) while a cap is passed. A campaign
   * sending or scheduled is kept (dropping it would stop work in progress), and so is
   * `keep`, the one being added to.
   */
  function enforceCampaignCaps(keep: string): void {
    if (campaigns.size <= maxCampaigns && recipientTotal <= maxRecipients) return;
    for (const c of campaigns.values()) {
      if (campaigns.size <= maxCampaigns && recipientTotal <= maxRecipients) return;
      if (c.id === keep || c.status === 'sending' || c.status === 'scheduled') continue;
      dropped.recipients += removeCampaign(c.id);
      dropped.campaigns++;
    }
  }

  /** Where recipient `id` is in the list, or -1. */
  function recipientPosition(entry: CampaignRecipients, id: string): number {
    let position = entry.next;
    if (entry.list[position]?.id !== id) {
      if (entry.byId === null) {
        const byId = new Map<string, number>();
        entry.list.forEach((r, i) => byId.set(r.id, i));
        entry.byId = byId;
      }
      position = entry.byId.get(id) ?? -1;
      if (position < 0) return -1;
    }
    entry.next = position + 1;
    return position;
  }

  function pushJournal(entry: JournalEntry): void {
    journal.push(entry);
    journalBodyChars += bodyChars(entry);
    while (journal.length > maxJournal || (journalBodyChars > maxJournalBodyChars && journal.length > 1)) {
      journalBodyChars -= bodyChars(journal.shift()!);
      dropped.journal++;
    }
  }

  function keepJournal(keep: (e: JournalEntry) => boolean): void {
    const kept = journal.toArray().filter(keep);
    journal = new Deque();
    journalBodyChars = 0;
    for (const e of kept) pushJournal(e);
  }

  function putRow(row: TemplateChannelRecord): void {
    const key = rowsKey(row.appId, row.templateId);
    let rows = templateChannels.get(key);
    if (!rows) templateChannels.set(key, (rows = new Map()));
    rows.set(row.channelId, row);
  }

  let initialApps: readonly string[] = [];

  function load(data: StoreData): void {
    deliveries = createDeliveryLog(maxDeliveries, data.deliveries, data.droppedDeliveries);
    notifications = createNotificationLog(maxNotifications, data.notifications);
    for (const e of data.journal) pushJournal(normaliseJournalEntry(e));
    for (const c of data.campaigns) campaigns.set(c.id, c);
    for (const r of data.recipients) addRecipientsQuietly(r.campaignId, [r]);
    for (const t of data.templates) templates.set(appKey(t.appId, t.id), t);
    for (const ch of data.channels ?? []) channels.set(appKey(ch.appId, ch.id), ch);
    for (const row of data.templateChannels ?? []) putRow(row);
    setEvents(data.analyticsEvents ?? []);
    const owners = [
      data.notifications,
      data.campaigns,
      data.templates,
      data.channels ?? [],
      data.analyticsEvents ?? [],
    ];
    const apps = new Set<string>();
    for (const records of owners) for (const { appId } of records) if (appId) apps.add(appId);
    initialApps = [...apps];
  }
  if (options.initial) load(options.initial);

  const store: MemoryStore = {
    addDeliveries(batch, ids) {
      const run = runOf(batch, ids);
      deliveries.addRun(run);
      changed();
      return storedView(run);
    },
    queryDeliveries(filter, page: Page) {
      return deliveries.query(filter, page);
    },
    countDeliveries(filter) {
      return store.queryDeliveries(filter, { offset: 0, limit: 0 }).total;
    },
    getDelivery(id) {
      return deliveries.find(id);
    },
    countDeliveriesByTime(filter, bucketMs) {
      return deliveries.countByTime(filter, bucketMs);
    },
    countDeliveriesByChannelAndTime(filter, bucketMs) {
      return deliveries.countByChannelAndTime(filter, bucketMs);
    },

    addNotification(record) {
      notifications.add(record);
      changed();
    },
    queryNotifications(filter, page) {
      return notifications.query(filter, page);
    },

    addCampaign(campaign) {
      campaigns.set(campaign.id, campaign);
      enforceCampaignCaps(campaign.id);
      changed();
    },
    getCampaign(id) {
      return campaigns.get(id);
    },
    updateCampaign(id, patch) {
      const current = campaigns.get(id);
      if (!current) throw new Error(`updateCampaign: no campaign ${id}`);
      const next = { ...current, ...patch };
      campaigns.set(id, next);
      changed();
      return next;
    },
    listCampaigns(filter: CampaignFilter) {
      return [...campaigns.values()].filter(
        (c) =>
          (filter.appId === undefined || c.appId === filter.appId) &&
          (filter.status === undefined || c.status === filter.status),
      );
    },

    addRecipients(campaignId, list) {
      addRecipientsQuietly(campaignId, list);
      enforceCampaignCaps(campaignId);
      changed();
    },
    hasRecipient(campaignId, userId) {
      const entry = recipientsByCampaign.get(campaignId);
      if (!entry) return false;
      entry.userIds ??= new Set(entry.list.map((r) => r.userId));
      return entry.userIds.has(userId);
    },
    recipients(campaignId) {
      return recipientsByCampaign.get(campaignId)?.list ?? [];
    },
    listRecipients(campaignId, filter, page) {
      const list = recipientsByCampaign.get(campaignId)?.list ?? [];
      return paginate(list, filter.status === undefined ? null : (r) => r.status === filter.status, page);
    },
    updateRecipient(campaignId, recipientId, patch) {
      const entry = recipientsByCampaign.get(campaignId);
      const position = entry ? recipientPosition(entry, recipientId) : -1;
      // A new record, not the old one changed: a data file write under way holds the old
      // ones (persistable), and must not show a recipient sent without its delivery.
      if (entry && position >= 0) entry.list[position] = { ...entry.list[position]!, ...patch };
      changed();
    },

    addJournal(entry) {
      pushJournal(entry);
      changed();
    },
    queryJournal(filter, page) {
      return paginate(journal, isFiltered(filter) ? journalPredicate(filter) : null, page);
    },
    getJournalEntry(id) {
      // Newest first: the entry a test just made is near the end.
      for (let i = journal.length - 1; i >= 0; i--) if (journal.at(i)!.id === id) return journal.at(i);
      return undefined;
    },

    listRuntimeTemplates() {
      return [...templates.values()];
    },
    putRuntimeTemplate(template) {
      templates.set(appKey(template.appId, template.id), template);
      changed();
    },
    deleteRuntimeTemplate(id, appId) {
      let existed = false;
      for (const [k, t] of [...templates]) {
        if (t.id === id && (appId === undefined || t.appId === appId)) existed = templates.delete(k) || existed;
      }
      changed();
      return existed;
    },

    listChannels(appId) {
      // One pass, no copy of every app's channels: each send asks.
      const own: Channel[] = [];
      for (const channel of channels.values()) if (channel.appId === appId) own.push(channel);
      return own;
    },
    getChannel(appId, id) {
      return channels.get(appKey(appId, id));
    },
    putChannel(channel) {
      // Keyed by app too: two apps' copies of a shared fixture channel keep its id.
      channels.set(appKey(channel.appId, channel.id), channel);
      changed();
    },

    listTemplateChannels(appId, templateId) {
      const rows = templateChannels.get(rowsKey(appId, templateId));
      return rows ? [...rows.values()] : NO_ROWS;
    },
    getTemplateChannel(appId, templateId, channelId) {
      return templateChannels.get(rowsKey(appId, templateId))?.get(channelId);
    },
    putTemplateChannel(row) {
      putRow(row);
      changed();
    },
    deleteTemplateChannels(appId, templateId) {
      const key = rowsKey(appId, templateId);
      const count = templateChannels.get(key)?.size ?? 0;
      if (templateChannels.delete(key)) changed();
      return count;
    },

    addAnalyticsEvent(event) {
      pushEvent(event);
      changed();
    },
    listAnalyticsEvents(appId) {
      const events: AnalyticsEvent[] = [];
      for (const e of analyticsEvents) if (e.appId === appId) events.push(e);
      return events;
    },
    findAnalyticsEvent(appId, event) {
      return eventsByKey.get(eventKey(appId, event));
    },

    clear(appId) {
      if (appId === undefined) {
        deliveries.retain(() => false);
        notifications.retain(() => false);
        keepJournal(() => false);
        campaigns.clear();
        recipientsByCampaign.clear();
        recipientTotal = 0;
        setEvents([]);
      } else {
        deliveries.retain((d) => d.appId !== appId);
        notifications.retain((n) => n.appId !== appId);
        keepJournal((e) => e.appId !== appId);
        for (const c of [...campaigns.values()]) {
          if (c.appId !== appId) continue;
          removeCampaign(c.id);
        }
        setEvents(analyticsEvents.toArray().filter((e) => e.appId !== appId));
      }
      changed();
    },
    reset(appId) {
      store.clear(appId);
      if (appId === undefined) {
        deliveries = createDeliveryLog(maxDeliveries);
        notifications = createNotificationLog(maxNotifications);
        dropped.journal = dropped.campaigns = dropped.recipients = dropped.analyticsEvents = 0;
        templates.clear();
        channels.clear();
        templateChannels.clear();
      } else {
        for (const [k, t] of [...templates]) if (t.appId === appId) templates.delete(k);
        for (const [k, ch] of [...channels]) if (ch.appId === appId) channels.delete(k);
        for (const k of [...templateChannels.keys()]) if (k.startsWith(rowsKey(appId, ''))) templateChannels.delete(k);
      }
      changed();
    },
    appsInInitialData() {
      return initialApps;
    },
    stats(): StoreStats {
      return {
        deliveries: deliveries.length,
        droppedDeliveries: deliveries.dropped,
        notifications: notifications.length,
        droppedNotifications: notifications.dropped,
        campaigns: campaigns.size,
        droppedCampaigns: dropped.campaigns,
        recipients: recipientTotal,
        droppedRecipients: dropped.recipients,
        journal: journal.length,
        droppedJournal: dropped.journal,
        analyticsEvents: analyticsEvents.length,
        droppedAnalyticsEvents: dropped.analyticsEvents,
      };
    },
    async flush() {},
    async close() {},
    persistable() {
      const recipientLists = [...recipientsByCampaign.values()].map((e) => e.list.slice());
      return {
        deliveries: deliveries.frozen(),
        droppedDeliveries: deliveries.dropped,
        notifications: notifications.toArray(),
        campaigns: [...campaigns.values()],
        recipients: {
          *[Symbol.iterator]() {
            for (const list of recipientLists) yield* list;
          },
        },
        journal: journal.toArray(),
        templates: [...templates.values()],
        channels: [...channels.values()],
        templateChannels: [...templateChannels.values()].flatMap((rows) => [...rows.values()]),
        analyticsEvents: analyticsEvents.toArray(),
      };
    },
    snapshot() {
      return {
        deliveries: deliveries.toArray(),
        droppedDeliveries: deliveries.dropped,
        notifications: notifications.toArray(),
        campaigns: [...campaigns.values()],
        recipients: [...recipientsByCampaign.values()].flatMap((e) => e.list),
        journal: journal.toArray(),
        templates: [...templates.values()],
        channels: [...channels.values()],
        templateChannels: [...templateChannels.values()].flatMap((rows) => [...rows.values()]),
        analyticsEvents: analyticsEvents.toArray(),
      };
    },
  };
  return store;
}
