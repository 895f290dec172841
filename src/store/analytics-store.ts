/**
 * Recorded analytics events in memory: the AnalyticsStore port, capped (oldest dropped
 * first), indexed by app and by user (keyed-log.ts). Recording an event finds its twin
 * among the user's events, and GET /api/analytics/users/{id} reads only that user's: no
 * pass over a million events, and no key string built per event (a user index holds the
 * event's own userId string).
 */
import type { AnalyticsEvent } from '../schemas/analytics.js';
import type { AnalyticsStore } from '../domain/ports.js';
import { filterKeys } from './filter-keys.js';
import { KeyedLog } from './keyed-log.js';
import type { KindOptions, RecordKind } from './store-data.js';

const keys = filterKeys<AnalyticsEvent>((e) => e.appId, [{ valueOf: (e) => e.userId, withApp: false }]);
const EVERY = { offset: 0, limit: Number.MAX_SAFE_INTEGER };

export function createAnalyticsStore(
  maxAnalyticsEvents: number,
  { initial, changed }: KindOptions<'analyticsEvents'>,
): RecordKind<AnalyticsStore, 'analyticsEvents', 'analyticsEvents' | 'droppedAnalyticsEvents'> {
  const options = { maxRecords: maxAnalyticsEvents, families: keys.families, keysOf: keys.keysOf, timeOf: () => '' };
  let events = new KeyedLog<AnalyticsEvent>(options, initial?.analyticsEvents ?? []);

  const list = (appId: string, userId?: string) => {
    const { keys: read, exact } = keys.keysFor(appId, [userId]);
    const matches = (e: AnalyticsEvent) => e.appId === appId && (userId === undefined || e.userId === userId);
    return events.query({ keys: read, exact, matches }, EVERY).items;
  };

  const port: AnalyticsStore = {
    addAnalyticsEvent(event) {
      events.add(event);
      changed();
    },
    listAnalyticsEvents: (appId) => list(appId),
    listUserAnalyticsEvents: (appId, userId) => list(appId, userId),
    findAnalyticsEvent(appId, event) {
      const own = list(appId, event.userId);
      for (let i = own.length - 1; i >= 0; i--) {
        const e = own[i]!;
        if (e.campaignId === event.campaignId && e.eventType === event.eventType) return e;
      }
      return undefined;
    },
  };
  return {
    port,
    clear(appId) {
      events.retain(appId === undefined ? () => false : (e) => e.appId !== appId);
    },
    reset(appId) {
      if (appId === undefined) events = new KeyedLog<AnalyticsEvent>(options);
      else events.retain((e) => e.appId !== appId);
    },
    stats: () => ({ analyticsEvents: events.length, droppedAnalyticsEvents: events.dropped }),
    snapshot: () => ({ analyticsEvents: events.toArray() }),
    persistable: () => ({ analyticsEvents: events.toArray() }),
  };
}
