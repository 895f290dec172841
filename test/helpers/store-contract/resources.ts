/**
 * The ResourceStore port (src/domain/ports/resources.ts): runtime templates and template-channel rows.
 * Part of the store contract (storeContract in ../store-contract.ts), run against every store.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceStore } from '../../../src/domain/ports.js';
import { at, ids, runtimeTemplate, templateChannel, type MakeStore } from './records.js';

export function resourceContract(make: MakeStore<ResourceStore>): void {
  describe('resources', () => {
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
  });
}
