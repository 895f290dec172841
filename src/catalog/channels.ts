/**
 * Channels visible to an app: the fixture set (fixtures/channels.json, replaced whole on
 * reload) plus the app's own channels in the store (created through the API, or an app's
 * copy of a fixture channel made by PUT, which keeps the fixture's id and wins over it).
 */
import type { ChannelCatalog, FixtureChannel, Store } from '../domain/ports.js';
import type { Channel } from '../schemas/channels.js';

export interface MutableChannelCatalog extends ChannelCatalog {
  replaceFixtures(channels: FixtureChannel[]): void;
}

export function createChannelCatalog(store: Store, fixtures: FixtureChannel[] = []): MutableChannelCatalog {
  let fixtureSet = fixtures;
  // Fixture channels as each app sees them (its appId), built once per app and fixture set:
  // a send lists the app's channels.
  let views = new Map<string, Channel[]>();
  const fixtureViews = (appId: string): Channel[] => {
    let list = views.get(appId);
    if (!list) {
      list = fixtureSet.filter((ch) => ch.appId === null || ch.appId === appId).map((ch) => ({ ...ch, appId }));
      views.set(appId, list);
    }
    return list;
  };

  const catalog: MutableChannelCatalog = {
    replaceFixtures(channels) {
      fixtureSet = channels;
      views = new Map();
    },
    list(appId) {
      const fixed = fixtureViews(appId);
      const own = store.listChannels(appId);
      if (fixed.length === 0) return own;
      const ownIds = new Set(own.map((ch) => ch.id));
      const copies = new Map(own.map((ch) => [ch.id, ch]));
      const fixtureIds = new Set(fixed.map((ch) => ch.id));
      return [
        ...fixed.map((ch) => (ownIds.has(ch.id) ? copies.get(ch.id)! : ch)),
        ...own.filter((ch) => !fixtureIds.has(ch.id)),
      ];
    },
    find(appId, ref) {
      const list = catalog.list(appId);
      return list.find((ch) => ch.id === ref) ?? list.find((ch) => ch.key === ref);
    },
  };
  return catalog;
}
