/**
 * Which channels a template is linked to (channelIdsOf): the ids it names, else, for a
 * fixture template that names none, every channel of the caller's app of a type it delivers
 * through.
 */
import { describe, expect, it } from 'vitest';
import { channelIdsOf } from '../../src/domain/template-view.js';
import type { ChannelCatalog } from '../../src/domain/ports.js';
import type { Channel, ChannelType } from '../../src/schemas/channels.js';
import { channel } from '../helpers/store-contract/records.js';
import { toTemplate } from '../../src/catalog/load-fixtures.js';
import { TemplateFileEntrySchema } from '../../src/schemas/template-file.js';

const linkable = (id: string, type: ChannelType): Channel => ({ ...channel(id, 'app-a'), type });

const APP_CHANNELS = [linkable('inbox', 'in_app'), linkable('mobile', 'push'), linkable('banner', 'in_app')];
const catalog: ChannelCatalog = {
  list: (appId) => (appId === 'app-a' ? APP_CHANNELS : []),
  find: (appId, ref) => (appId === 'app-a' ? APP_CHANNELS.find((ch) => ch.id === ref) : undefined),
};

const fixtureTemplate = (extra: Record<string, unknown>) =>
  toTemplate(
    TemplateFileEntrySchema.parse({
      key: 'welcome',
      name: 'Welcome',
      status: 'approved',
      channels: ['in_app'],
      variableSchema: [],
      content: { in_app: { title: 'Hi' } },
      ...extra,
    }),
    '2030-01-01T00:00:00.000Z',
  );

describe('channelIdsOf', () => {
  it("links a fixture template without channelIds to the app's channels of its types, in the app's order", () => {
    expect(channelIdsOf(catalog, 'app-a', fixtureTemplate({}))).toEqual(['inbox', 'banner']);
    expect(channelIdsOf(catalog, 'app-a', fixtureTemplate({ channels: ['push'] }))).toEqual(['mobile']);
    expect(channelIdsOf(catalog, 'app-b', fixtureTemplate({}))).toEqual([]);
  });

  it('links a runtime template without channelIds to no channel, not by type as a fixture template', () => {
    // The Template record allows it (channelIds is optional); create and update always store the list.
    const { channelIds: _, ...runtime } = { ...fixtureTemplate({}), source: 'runtime' as const };
    expect(runtime).not.toHaveProperty('channelIds');
    expect(channelIdsOf(catalog, 'app-a', runtime)).toEqual([]);
  });

  it('gives the channelIds a template names, not every channel of its types', () => {
    const template = { ...fixtureTemplate({}), channelIds: ['banner'] };
    expect(channelIdsOf(catalog, 'app-a', template)).toEqual(['banner']);
  });
});
