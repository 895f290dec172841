/**
 * What the composed Store does across every kind (src/domain/ports/store.ts): clear() and reset(),
 * of all apps or one.
 * Part of the store contract (storeContract in ../store-contract.ts), run against every store.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/domain/ports.js';
import { ALL, channel, fill, ids, runtimeTemplate, templateChannel, type MakeStore } from './records.js';

export function lifecycleContract(make: MakeStore<Store>): void {
  describe('lifecycle', () => {
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
      expect([...store.recipients('ca')]).toEqual([]);
      expect(ids([...store.recipients('cb')])).toEqual(['cb-r1']);
      expect(ids(store.queryJournal({}, ALL).items)).toEqual(['j2']);
    });
  });
}
