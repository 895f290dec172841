/**
 * The behaviour every Store must have (ports.ts), as one suite run against each
 * implementation: memory-store.test.ts and lowdb-store.test.ts call it with a factory.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AnalyticsEvent } from '../../src/schemas/analytics.js';
import type {
  Campaign,
  Delivery,
  JournalEntry,
  NotificationRecord,
  Recipient,
  Store,
  Template,
} from '../../src/index.js';
import type { Channel } from '../../src/schemas/channels.js';
import type { TemplateChannelRecord } from '../../src/schemas/template-channels.js';

/** Adds each delivery as a batch of one whose id is the delivery's own. */
export function addDeliveries(store: Store, deliveries: Delivery[]): void {
  for (const d of deliveries) {
    const { id, userId, variables, rendered, status, failureReason, scenario, ...shared } = d;
    const objectIds = () => ({ at: () => id, indexOf: (other: string) => (other === id ? 0 : -1) });
    const ids = { objectId: () => id, objectIds, notificationId: () => id };
    const failures = new Map(status === 'failed' ? [[0, { reason: failureReason ?? '', scenario }]] : []);
    const stored = store.addDeliveries(
      { shared, userIds: [userId], variables: { all: variables }, render: () => rendered, failures },
      ids,
    );
    expect(stored.idAt(0)).toBe(id);
  }
}

export type StoreFactory = (options: { maxDeliveries?: number; maxJournal?: number }) => Promise<Store>;

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute)).toISOString();

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
const ids = (list: { id: string }[]) => list.map((x) => x.id);

export function storeContract(name: string, factory: StoreFactory): void {
  describe(`${name}: the Store contract`, () => {
    const open: Store[] = [];
    const make = async (options: { maxDeliveries?: number; maxJournal?: number } = {}) => {
      const store = await factory(options);
      open.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
    });

    it('filters deliveries by each field and keeps them oldest first', async () => {
      const store = await make();
      addDeliveries(store, [
        delivery(1),
        delivery(2, { appId: 'app-b', userId: 'u-x', templateKey: 'other', templateId: 'tpl-2', mode: 'batch' }),
        delivery(3, { campaignId: 'c1', channels: ['push'], status: 'failed', tag: 'promo' }),
        delivery(4, { channels: ['in_app', 'push'] }),
      ]);
      const q = (filter: object) => ids(store.queryDeliveries(filter, ALL).items);
      expect(q({})).toEqual(['d1', 'd2', 'd3', 'd4']);
      expect(q({ appId: 'app-b' })).toEqual(['d2']);
      expect(q({ userId: 'user-1' })).toEqual(['d1']);
      expect(q({ templateKey: 'other' })).toEqual(['d2']);
      expect(q({ templateId: 'tpl-1' })).toEqual(['d1', 'd3', 'd4']);
      expect(q({ campaignId: 'c1' })).toEqual(['d3']);
      expect(q({ notificationId: 'notif_1' })).toEqual(['d1', 'd4']);
      expect(q({ mode: 'batch' })).toEqual(['d2']);
      expect(q({ channel: 'push' })).toEqual(['d3', 'd4']);
      expect(q({ status: 'failed' })).toEqual(['d3']);
      expect(q({ tag: 'promo' })).toEqual(['d3']);
      expect(q({ since: Date.parse(at(2)), until: Date.parse(at(3)) })).toEqual(['d2', 'd3']);
      expect(q({ appId: 'app-a', channel: 'push', status: 'sent' })).toEqual(['d4']);
      expect(q({ userId: 'nobody' })).toEqual([]);
      expect(store.countDeliveries({ appId: 'app-a' })).toBe(3);
    });

    it('pages deliveries with offset and limit and reports the total of all matches', async () => {
      const store = await make();
      addDeliveries(
        store,
        Array.from({ length: 10 }, (_, i) => delivery(i)),
      );
      const page = store.queryDeliveries({}, { offset: 3, limit: 4 });
      expect(page.total).toBe(10);
      expect(ids(page.items)).toEqual(['d3', 'd4', 'd5', 'd6']);
      const filtered = store.queryDeliveries({ userId: 'user-1' }, { offset: 1, limit: 1 });
      expect(filtered).toMatchObject({ total: 3, items: [{ id: 'd5' }] });
      expect(store.queryDeliveries({}, { offset: 20, limit: 5 })).toEqual({ total: 10, items: [] });
      expect(store.queryDeliveries({}, { offset: 0, limit: 0 }).items).toEqual([]);
    });

    it('drops the oldest deliveries beyond the retention cap and counts them', async () => {
      const store = await make({ maxDeliveries: 3 });
      addDeliveries(store, [delivery(1), delivery(2)]);
      addDeliveries(store, [delivery(3), delivery(4), delivery(5)]);
      expect(ids(store.queryDeliveries({}, ALL).items)).toEqual(['d3', 'd4', 'd5']);
      expect(ids(store.queryDeliveries({ userId: 'user-1' }, ALL).items)).toEqual(['d5']);
      expect(store.stats()).toMatchObject({ deliveries: 3, droppedDeliveries: 2 });
    });

    it('keeps and filters notifications, by id too', async () => {
      const store = await make();
      store.addNotification(notification(1, { sentCount: 0, failedCount: 1 }));
      store.addNotification(notification(2, { appId: 'app-b', mode: 'batch', tag: 't', templateKey: 'k2' }));
      const q = (filter: object) => store.queryNotifications(filter, ALL).items.map((n) => n.notificationId);
      expect(q({})).toEqual(['notif_1', 'notif_2']);
      expect(q({ appId: 'app-b' })).toEqual(['notif_2']);
      expect(q({ mode: 'batch', tag: 't', templateKey: 'k2' })).toEqual(['notif_2']);
      expect(q({ notificationId: 'notif_2', appId: 'app-a' })).toEqual([]);
      expect(store.queryNotifications({ notificationId: 'notif_1' }, ALL).items[0]).toMatchObject({
        sentCount: 0,
        failedCount: 1,
      });
      expect(store.stats().notifications).toBe(2);
    });

    it('inserts, updates and lists campaigns by app and status', async () => {
      const store = await make();
      store.addCampaign(campaign('c1'));
      store.addCampaign(campaign('c2', { appId: 'app-b', status: 'scheduled' }));
      const updated = store.updateCampaign('c1', { status: 'sent', sentCount: 2 });
      expect(updated).toMatchObject({ id: 'c1', status: 'sent', sentCount: 2, name: 'Campaign c1' });
      expect(store.getCampaign('c1')?.status).toBe('sent');
      expect(store.getCampaign('missing')).toBeUndefined();
      expect(ids(store.listCampaigns({}))).toEqual(['c1', 'c2']);
      expect(ids(store.listCampaigns({ appId: 'app-b' }))).toEqual(['c2']);
      expect(ids(store.listCampaigns({ status: 'sent' }))).toEqual(['c1']);
      expect(() => store.updateCampaign('missing', {})).toThrow(/missing/);
    });

    it('keeps recipients per campaign, finds them by user and updates them', async () => {
      const store = await make();
      store.addCampaign(campaign('c1'));
      store.addRecipients('c1', [recipient('c1', 1), recipient('c1', 2)]);
      store.addRecipients('c2', [recipient('c2', 1)]);
      expect(store.hasRecipient('c1', 'user-2')).toBe(true);
      expect(store.hasRecipient('c1', 'user-9')).toBe(false);
      expect(store.hasRecipient('nope', 'user-1')).toBe(false);
      store.updateRecipient('c1', 'c1-r2', { status: 'sent', deliveryId: 'd1' });
      expect(ids([...store.recipients('c1')])).toEqual(['c1-r1', 'c1-r2']);
      expect(store.listRecipients('c1', { status: 'sent' }, ALL)).toMatchObject({
        total: 1,
        items: [{ id: 'c1-r2', deliveryId: 'd1' }],
      });
      expect(store.listRecipients('c1', {}, { offset: 1, limit: 5 })).toMatchObject({
        total: 2,
        items: [{ id: 'c1-r2' }],
      });
      expect(store.listRecipients('nope', {}, ALL)).toEqual({ total: 0, items: [] });
      expect(store.stats().recipients).toBe(3);
    });

    it('knows every recipient added, before and after its user index is first used', async () => {
      const store = await make();
      store.addCampaign(campaign('c1'));
      const first = [recipient('c1', 1), recipient('c1', 2)];
      store.addRecipients('c1', first);
      first.pop(); // the store keeps its own list, not the caller's array
      expect(ids([...store.recipients('c1')])).toEqual(['c1-r1', 'c1-r2']);
      expect(store.hasRecipient('c1', 'user-2')).toBe(true);
      store.addRecipients('c1', [recipient('c1', 3)]);
      expect(store.hasRecipient('c1', 'user-3')).toBe(true);
      expect(store.hasRecipient('c1', 'user-4')).toBe(false);
      expect(ids([...store.recipients('c1')])).toEqual(['c1-r1', 'c1-r2', 'c1-r3']);
    });

    it('keeps the journal with its filters', async () => {
      const store = await make();
      store.addJournal(journalEntry(1));
      store.addJournal(
        journalEntry(2, {
          method: 'GET',
          path: '/api/templates',
          status: 401,
          errorCode: 'ERR_UNAUTHORIZED',
          appId: null,
        }),
      );
      store.addJournal(journalEntry(3, { scenario: 'outage', status: 500 }));
      const q = (filter: object) => ids(store.queryJournal(filter, ALL).items);
      expect(q({})).toEqual(['j1', 'j2', 'j3']);
      expect(q({ method: 'get' })).toEqual(['j2']);
      expect(q({ path: '/api/templates', status: 401, errorCode: 'ERR_UNAUTHORIZED' })).toEqual(['j2']);
      expect(q({ appId: 'app-a', scenario: 'outage' })).toEqual(['j3']);
      expect(q({ since: Date.parse(at(2)) })).toEqual(['j2', 'j3']);
      expect(ids(store.queryJournal({}, { ...ALL, order: 'desc' }).items)).toEqual(['j3', 'j2', 'j1']);
      expect(ids(store.queryJournal({ appId: 'app-a' }, { offset: 1, limit: 5, order: 'desc' }).items)).toEqual(['j1']);
      expect(store.getJournalEntry('j2')).toMatchObject({ id: 'j2', status: 401 });
      expect(store.getJournalEntry('nope')).toBeUndefined();
    });

    it('filters the journal by body text (request or response) and by any applied rule', async () => {
      const store = await make();
      store.addJournal(journalEntry(1, { requestBody: '{"userId":"ada"}' }));
      store.addJournal(journalEntry(2, { responseBody: '{"id":"ada-2"}' }));
      store.addJournal(
        journalEntry(3, {
          scenario: 'b',
          rule: 'rule 1',
          rules: [
            { scenario: 'a', index: 2, rule: 'rule 2' },
            { scenario: 'b', index: 1, rule: 'rule 1' },
          ],
        }),
      );
      const q = (filter: object) => ids(store.queryJournal(filter, ALL).items);
      expect(q({ bodyContains: 'ada' })).toEqual(['j1', 'j2']);
      expect(q({ bodyContains: 'ADA' })).toEqual([]);
      expect(q({ scenario: 'a' })).toEqual(['j3']);
      expect(q({ scenario: 'b' })).toEqual(['j3']);
    });

    it('keeps at most maxJournal journal entries, dropping the oldest', async () => {
      const store = await make({ maxJournal: 3 });
      for (let n = 1; n <= 5; n++) store.addJournal(journalEntry(n));
      expect(ids(store.queryJournal({}, ALL).items)).toEqual(['j3', 'j4', 'j5']);
      expect(store.stats().journal).toBe(3);
      expect(store.getJournalEntry('j1')).toBeUndefined();
    });

    it('puts, lists and deletes runtime templates', async () => {
      const store = await make();
      store.putRuntimeTemplate(runtimeTemplate('t1'));
      store.putRuntimeTemplate(runtimeTemplate('t2'));
      store.putRuntimeTemplate({ ...runtimeTemplate('t1'), name: 'Renamed' });
      expect(store.listRuntimeTemplates().map((t) => [t.id, t.name])).toEqual([
        ['t1', 'Renamed'],
        ['t2', 'Runtime'],
      ]);
      expect(store.deleteRuntimeTemplate('t2')).toBe(true);
      expect(store.deleteRuntimeTemplate('t2')).toBe(false);
      expect(ids(store.listRuntimeTemplates())).toEqual(['t1']);
    });

    it('puts, replaces, lists and deletes template-channel rows per app and template', async () => {
      const store = await make();
      store.putTemplateChannel(templateChannel('t1', 'ch1'));
      store.putTemplateChannel(templateChannel('t1', 'ch2', { channelType: 'push' }));
      store.putTemplateChannel(templateChannel('t2', 'ch1'));
      store.putTemplateChannel(templateChannel('t1', 'ch1', { appId: 'app-b', content: { title: 'B' } }));
      store.putTemplateChannel(templateChannel('t1', 'ch1', { content: { title: 'New' }, updatedAt: at(5) }));
      const rows = (appId: string, templateId: string) =>
        store.listTemplateChannels(appId, templateId).map((r) => [r.channelId, r.content.title]);
      expect(rows('app-a', 't1')).toEqual([
        ['ch1', 'New'],
        ['ch2', 'Hi from ch2'],
      ]);
      expect(rows('app-b', 't1')).toEqual([['ch1', 'B']]);
      expect(rows('app-a', 'missing')).toEqual([]);
      expect(store.getTemplateChannel('app-a', 't1', 'ch1')).toEqual(
        templateChannel('t1', 'ch1', { content: { title: 'New' }, updatedAt: at(5) }),
      );
      expect(store.getTemplateChannel('app-b', 't1', 'ch2')).toBeUndefined();
      expect(store.deleteTemplateChannels('app-a', 't1')).toBe(2);
      expect(store.deleteTemplateChannels('app-a', 't1')).toBe(0);
      expect(rows('app-a', 't1')).toEqual([]);
      expect(rows('app-a', 't2')).toEqual([['ch1', 'Hi from ch1']]);
      expect(rows('app-b', 't1')).toEqual([['ch1', 'B']]);
    });

    it('clears everything but runtime templates and template-channel rows', async () => {
      const store = await make();
      fill(store);
      store.clear();
      expect(store.listTemplateChannels('app-a', 't1')).toHaveLength(1);
      expect(store.stats()).toMatchObject({ deliveries: 0, notifications: 0, campaigns: 0, recipients: 0, journal: 0 });
      expect(store.queryDeliveries({ userId: 'user-1' }, ALL).total).toBe(0);
      expect(ids(store.listRuntimeTemplates())).toEqual(['t1']);
    });

    it('resets everything: records, runtime templates, channels and the dropped count', async () => {
      const store = await make({ maxDeliveries: 1 });
      fill(store);
      store.putChannel(channel('ch1', 'app-a'));
      store.putTemplateChannel(templateChannel('t1', 'ch1'));
      expect(store.stats().droppedDeliveries).toBe(1);
      store.reset();
      expect(store.stats()).toEqual({
        deliveries: 0,
        droppedDeliveries: 0,
        notifications: 0,
        droppedNotifications: 0,
        campaigns: 0,
        droppedCampaigns: 0,
        recipients: 0,
        droppedRecipients: 0,
        journal: 0,
        droppedJournal: 0,
        analyticsEvents: 0,
        droppedAnalyticsEvents: 0,
      });
      expect(store.listRuntimeTemplates()).toEqual([]);
      expect(store.listChannels('app-a')).toEqual([]);
      expect(store.listTemplateChannels('app-a', 't1')).toEqual([]);
    });

    it('resets one app: its records, runtime templates and channels; other apps keep theirs', async () => {
      const store = await make();
      fill(store);
      store.putRuntimeTemplate({ ...runtimeTemplate('t2'), appId: 'app-b' });
      store.putChannel(channel('ch1', 'app-a'));
      store.putChannel(channel('ch2', 'app-b'));
      store.putTemplateChannel(templateChannel('t1', 'ch1'));
      store.putTemplateChannel(templateChannel('t1', 'ch2', { appId: 'app-b' }));
      store.reset('app-a');
      expect(ids(store.queryDeliveries({}, ALL).items)).toEqual(['d2']);
      expect(ids(store.queryJournal({}, ALL).items)).toEqual(['j2']);
      expect(ids(store.listCampaigns({}))).toEqual(['cb']);
      expect(ids(store.listRuntimeTemplates())).toEqual(['t2']);
      expect(store.listChannels('app-a')).toEqual([]);
      expect(ids(store.listChannels('app-b'))).toEqual(['ch2']);
      expect(store.listTemplateChannels('app-a', 't1')).toEqual([]);
      expect(store.listTemplateChannels('app-b', 't1').map((r) => r.channelId)).toEqual(['ch2']);
    });

    it('clears one app and keeps the others, indexes included', async () => {
      const store = await make();
      fill(store);
      store.clear('app-a');
      expect(ids(store.queryDeliveries({}, ALL).items)).toEqual(['d2']);
      expect(ids(store.queryDeliveries({ userId: 'user-2' }, ALL).items)).toEqual(['d2']);
      expect(store.queryDeliveries({ userId: 'user-1' }, ALL).total).toBe(0);
      expect(store.queryNotifications({}, ALL).items.map((n) => n.appId)).toEqual(['app-b']);
      expect(ids(store.listCampaigns({}))).toEqual(['cb']);
      expect(store.recipients('ca')).toEqual([]);
      expect(ids([...store.recipients('cb')])).toEqual(['cb-r1']);
      expect(ids(store.queryJournal({}, ALL).items)).toEqual(['j2']);
    });

    it('finds an analytics event by app, campaign, user and type, and not after a clear', async () => {
      const store = await make();
      const event = (id: string, appId: string, eventType: AnalyticsEvent['eventType']): AnalyticsEvent => ({
        id,
        appId,
        campaignId: 'ca',
        userId: 'user-1',
        channelType: 'push',
        eventType,
        createdAt: at(1),
      });
      for (const e of [event('e1', 'app-a', 'viewed'), event('e2', 'app-b', 'viewed'), event('e3', 'app-a', 'clicked')])
        store.addAnalyticsEvent(e);
      const find = (appId: string, eventType: AnalyticsEvent['eventType'], userId = 'user-1') =>
        store.findAnalyticsEvent(appId, { campaignId: 'ca', userId, eventType })?.id;
      expect([find('app-a', 'viewed'), find('app-b', 'viewed'), find('app-a', 'clicked')]).toEqual(['e1', 'e2', 'e3']);
      expect([find('app-b', 'clicked'), find('app-a', 'viewed', 'user-2'), find('app-a', 'delivered')]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      store.clear('app-a');
      expect([find('app-a', 'viewed'), find('app-b', 'viewed')]).toEqual([undefined, 'e2']);
      store.clear();
      expect(find('app-b', 'viewed')).toBeUndefined();
    });
  });
}

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
