/**
 * Recorded analytics events in memory: the AnalyticsStore port over a packed, capped log
 * (analytics-log.ts). Recording an event finds its twin by walking the user's own events
 * newest first, and GET /api/analytics/users/{id} reads only that user's: no pass over a
 * million events. The app's events are built one by one as a report reads them.
 */
import type { AnalyticsStore } from '../../domain/ports.js';
import { AnalyticsLog } from './analytics-log.js';
import type { KindOptions, RecordKind } from '../store-data.js';

export function createAnalyticsStore(
  maxAnalyticsEvents: number,
  { initial, changed, turns }: KindOptions<'analyticsEvents'>,
): RecordKind<AnalyticsStore, 'analyticsEvents', 'analyticsEvents' | 'droppedAnalyticsEvents'> {
  let events = new AnalyticsLog(maxAnalyticsEvents, initial?.analyticsEvents ?? [], turns);

  const port: AnalyticsStore = {
    addAnalyticsEvent(event) {
      events.add(event);
      changed();
    },
    listAnalyticsEvents: (appId) => events.ofApp(appId),
    listUserAnalyticsEvents: (appId, userId) => events.ofUser(appId, userId),
    findAnalyticsEvent: (appId, event) =>
      events.findOfUser(
        appId,
        event.userId,
        (field) => field('campaignId') === event.campaignId && field('eventType') === event.eventType,
      ),
  };
  return {
    port,
    // Not clearByApp(): keeping the records a predicate accepts would build every one of them.
    clear(appId) {
      events = appId === undefined ? events.emptied() : events.withoutApp(appId);
    },
    reset(appId) {
      events = appId === undefined ? new AnalyticsLog(maxAnalyticsEvents, [], turns) : events.withoutApp(appId);
    },
    stats: () => ({ analyticsEvents: events.length, droppedAnalyticsEvents: events.dropped }),
    snapshot: () => ({ analyticsEvents: [...events.frozen()] }),
    persistable: () => ({ analyticsEvents: events.frozen() }),
  };
}
