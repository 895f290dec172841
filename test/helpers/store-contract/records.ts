/**
 * The records the store contract makes, and the helpers its per-kind suites share.
 */
import type {
  Campaign,
  Delivery,
  JournalEntry,
  NotificationRecord,
  Recipient,
  Store,
  Template,
} from '../../../src/index.js';
import type { AnalyticsStore, DeliveryStore } from '../../../src/domain/ports.js';
import type { AnalyticsEvent } from '../../../src/schemas/analytics.js';
import type { Channel } from '../../../src/schemas/channels.js';
import type { TemplateChannelRecord } from '../../../src/schemas/template-channels.js';
import { expect } from 'vitest';

/** The retention caps a contract test may set. */
export interface StoreOptions {
  maxDeliveries?: number;
  maxJournal?: number;
  maxNotifications?: number;
  maxAnalyticsEvents?: number;
}

/** Opens a store for one test (closed after it), seen through the ports a suite checks. */
export type MakeStore<P> = (options?: StoreOptions) => Promise<P>;

/** Adds each delivery as a batch of one whose id is the delivery's own. */
export function addDeliveries(store: Pick<DeliveryStore, 'addDeliveries'>, deliveries: Delivery[]): void {
  for (const d of deliveries) {
    const { id, userId, variables, rendered, status, failureReason, scenario, ...shared } = d;
    const objectIds = () => ({ prefix: id, at: () => id, indexOf: (other: string) => (other === id ? 0 : -1) });
    const ids = { objectId: () => id, objectIds, notificationId: () => id };
    const failures = new Map(status === 'failed' ? [[0, { reason: failureReason ?? '', scenario }]] : []);
    const stored = store.addDeliveries(
      { shared, userIds: [userId], variables: { all: variables }, render: () => rendered, failures },
      ids,
    );
    expect(stored.idAt(0)).toBe(id);
  }
}

export const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute)).toISOString();

export function delivery(n: number, over: Partial<Delivery> = {}): Delivery {
  return {
    id: `d${n}`,
    appId: 'app-a',
    notificationId: `notif_${n % 3}`,
    campaignId: null,
    userId: `user-${n % 4}`,
    templateId: 'tpl-1',
    templateKey: 'order-confirmation',
    channels: ['in_app'],
    mode: 'realtime',
    title: null,
    tag: null,
    variables: {},
    rendered: {},
    pushData: null,
    status: 'sent',
    failureReason: null,
    scenario: null,
    createdAt: at(n),
    ...over,
  };
}

export const notification = (n: number, over: Partial<NotificationRecord> = {}): NotificationRecord => ({
  notificationId: `notif_${n}`,
  templateKey: 'order-confirmation',
  channels: ['in_app'],
  mode: 'realtime',
  title: null,
  tag: null,
  sentFrom: 'api',
  createdAt: at(n),
  appId: 'app-a',
  templateId: 'tpl-1',
  targetCount: 1,
  sentCount: 1,
  failedCount: 0,
  ...over,
});

export const campaign = (id: string, over: Partial<Campaign> = {}): Campaign => ({
  id,
  appId: 'app-a',
  name: `Campaign ${id}`,
  templateId: 'tpl-1',
  status: 'draft',
  deliveryMode: 'batch',
  tag: null,
  scheduledAt: null,
  recipientCount: 0,
  sentCount: 0,
  failedCount: 0,
  createdAt: at(0),
  updatedAt: at(0),
  startedAt: null,
  completedAt: null,
  ...over,
});

export const recipient = (campaignId: string, n: number, over: Partial<Recipient> = {}): Recipient => ({
  id: `${campaignId}-r${n}`,
  campaignId,
  appId: 'app-a',
  userId: `user-${n}`,
  variables: { name: `U${n}` },
  status: 'pending',
  failureReason: null,
  deliveryId: null,
  createdAt: at(n),
  updatedAt: at(n),
  ...over,
});

export const journalEntry = (n: number, over: Partial<JournalEntry> = {}): JournalEntry => ({
  id: `j${n}`,
  time: at(n),
  method: 'POST',
  path: '/api/notifications/send',
  query: '',
  appId: 'app-a',
  status: 200,
  errorCode: null,
  scenario: null,
  rule: null,
  rules: [],
  requestHeaders: {},
  requestBody: null,
  requestBodyTruncated: false,
  responseBody: null,
  responseBodyTruncated: false,
  durationMs: 1,
  ...over,
});

export const runtimeTemplate = (id: string): Template => ({
  id,
  key: `key-${id}`,
  name: 'Runtime',
  status: 'approved',
  channels: ['in_app'],
  variableSchema: [],
  content: { in_app: { title: 'Hi' } },
  category: null,
  appId: 'app-a',
  source: 'runtime',
  createdAt: at(0),
  updatedAt: at(0),
});

export const templateChannel = (
  templateId: string,
  channelId: string,
  over: Partial<TemplateChannelRecord> = {},
): TemplateChannelRecord => ({
  appId: 'app-a',
  templateId,
  channelId,
  channelType: 'in_app',
  content: { title: `Hi from ${channelId}` },
  createdAt: at(0),
  updatedAt: at(0),
  ...over,
});

/** Every record a contract test makes. */
export const ALL = { offset: 0, limit: 1000 };
export const ids = (list: { id: string }[]) => list.map((x) => x.id);

export const channel = (id: string, appId: string): Channel => ({
  id,
  appId,
  name: `Channel ${id}`,
  key: id,
  type: 'push',
  templateType: 'data',
  enabled: true,
  categoryFilter: false,
  templateLabel: false,
  config: {},
  createdAt: at(1),
  updatedAt: at(1),
});

/** Two apps' worth of every kind of record. */
export function fill(store: Store): void {
  addDeliveries(store, [delivery(1), delivery(2, { appId: 'app-b' })]);
  store.addNotification(notification(1));
  store.addNotification(notification(2, { appId: 'app-b' }));
  store.addCampaign(campaign('ca'));
  store.addCampaign(campaign('cb', { appId: 'app-b' }));
  store.addRecipients('ca', [recipient('ca', 1)]);
  store.addRecipients('cb', [recipient('cb', 1, { appId: 'app-b' })]);
  store.addJournal(journalEntry(1));
  store.addJournal(journalEntry(2, { appId: 'app-b' }));
  store.putRuntimeTemplate(runtimeTemplate('t1'));
  store.putTemplateChannel(templateChannel('t1', 'ch1'));
}

/** What the analytics port must answer to `ask` when it keeps `model` (oldest first): a plain filter's answers. */
export function expectAnalyticsAnswers(
  store: AnalyticsStore,
  model: readonly AnalyticsEvent[],
  ask: Pick<AnalyticsEvent, 'appId' | 'userId' | 'campaignId' | 'eventType'>,
): void {
  const own = model.filter((e) => e.appId === ask.appId);
  expect([...store.listAnalyticsEvents(ask.appId)]).toEqual(own);
  expect(store.listUserAnalyticsEvents(ask.appId, ask.userId)).toEqual(own.filter((e) => e.userId === ask.userId));
  const twins = own.filter(
    (e) => e.userId === ask.userId && e.campaignId === ask.campaignId && e.eventType === ask.eventType,
  );
  expect(store.findAnalyticsEvent(ask.appId, ask)).toEqual(twins.at(-1));
}
