import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory-store.js';
import type { Template } from '../../src/schemas/records.js';
import type { AnalyticsEvent } from '../../src/schemas/analytics.js';
import type { Channel } from '../../src/schemas/channels.js';

const template = (appId: string | null, name: string): Template => ({
  id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  key: 'plain',
  name,
  status: 'approved',
  channels: ['in_app'],
  variableSchema: [],
  content: {},
  category: null,
  appId,
  source: 'runtime',
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
});
const channel = (id: string, appId: string): Channel => ({
  id,
  appId,
  name: id,
  key: id,
  type: 'in_app',
  templateType: 'ui',
  enabled: true,
  categoryFilter: false,
  templateLabel: false,
  config: {},
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
});
const event = (id: string, appId: string): AnalyticsEvent => ({
  id,
  appId,
  campaignId: 'c',
  userId: 'u',
  channelType: 'in_app',
  eventType: 'viewed',
  createdAt: '2030-01-01T00:00:00.000Z',
});

describe('memory store: runtime templates, channels, analytics events', () => {
  it("keeps two apps' overrides of the same template id apart and deletes one app's only", () => {
    const store = createMemoryStore();
    store.putRuntimeTemplate(template('app-a', 'A'));
    store.putRuntimeTemplate(template('app-b', 'B'));
    expect(
      store
        .listRuntimeTemplates()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['A', 'B']);
    expect(store.deleteRuntimeTemplate('aaaaaaaaaaaaaaaaaaaaaaaa', 'app-a')).toBe(true);
    expect(store.listRuntimeTemplates().map((t) => t.name)).toEqual(['B']);
    expect(store.deleteRuntimeTemplate('aaaaaaaaaaaaaaaaaaaaaaaa', 'app-a')).toBe(false);
  });

  it("lists channels and events per app; clear(appId) drops that app's events and keeps channels", () => {
    const store = createMemoryStore();
    store.putChannel(channel('c1', 'app-a'));
    store.putChannel(channel('c2', 'app-b'));
    store.addAnalyticsEvent(event('e1', 'app-a'));
    store.addAnalyticsEvent(event('e2', 'app-b'));
    expect(store.listChannels('app-a').map((c) => c.id)).toEqual(['c1']);
    store.clear('app-a');
    expect([...store.listAnalyticsEvents('app-a')]).toEqual([]);
    expect([...store.listAnalyticsEvents('app-b')].map((e) => e.id)).toEqual(['e2']);
    expect(store.listChannels('app-a').map((c) => c.id)).toEqual(['c1']);
    store.clear();
    expect([...store.listAnalyticsEvents('app-b')]).toEqual([]);
    expect(store.getChannel('app-b', 'c2')).toBeDefined();
    expect(store.getChannel('app-a', 'c2')).toBeUndefined();
  });

  it('round-trips channels, events and overrides through snapshot()', () => {
    const store = createMemoryStore();
    store.putRuntimeTemplate(template('app-a', 'A'));
    store.putRuntimeTemplate(template('app-b', 'B'));
    store.putChannel(channel('c1', 'app-a'));
    store.addAnalyticsEvent(event('e1', 'app-a'));
    const copy = createMemoryStore({ initial: JSON.parse(JSON.stringify(store.snapshot())) });
    expect(copy.listRuntimeTemplates()).toHaveLength(2);
    expect(copy.getChannel('app-a', 'c1')).toEqual(channel('c1', 'app-a'));
    expect([...copy.listAnalyticsEvents('app-a')]).toEqual([event('e1', 'app-a')]);
  });
});
