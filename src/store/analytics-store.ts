/**
 * Recorded analytics events in memory: the AnalyticsStore port, capped (oldest dropped
 * first), with each event indexed by app, campaign, user and type so recording one finds
 * its twin without a scan.
 */
import type { AnalyticsEvent } from '../schemas/analytics.js';
import type { AnalyticsStore } from '../domain/ports.js';
import { Deque } from './deque.js';
import type { KindOptions, RecordKind } from './store-data.js';

const eventKey = (appId: string, e: Pick<AnalyticsEvent, 'campaignId' | 'userId' | 'eventType'>) =>
  `${appId}\u0000${e.campaignId}\u0000${e.userId}\u0000${e.eventType}`;

export function createAnalyticsStore(
  maxAnalyticsEvents: number,
  { initial, changed }: KindOptions<'analyticsEvents'>,
): RecordKind<AnalyticsStore, 'analyticsEvents', 'analyticsEvents' | 'droppedAnalyticsEvents'> {
  let events = new Deque<AnalyticsEvent>();
  let byKey = new Map<string, AnalyticsEvent>();
  let dropped = 0;

  function push(event: AnalyticsEvent): void {
    events.push(event);
    byKey.set(eventKey(event.appId, event), event);
    while (events.length > maxAnalyticsEvents) {
      const oldest = events.shift()!;
      const key = eventKey(oldest.appId, oldest);
      if (byKey.get(key) === oldest) byKey.delete(key);
      dropped++;
    }
  }

  /** Keeps `list` (oldest first) within the cap, and its index. */
  function setEvents(list: readonly AnalyticsEvent[]): void {
    events = new Deque();
    byKey = new Map();
    for (const e of list) push(e);
  }

  function clear(appId: string | undefined): void {
    setEvents(appId === undefined ? [] : events.toArray().filter((e) => e.appId !== appId));
  }

  setEvents(initial?.analyticsEvents ?? []);

  const port: AnalyticsStore = {
    addAnalyticsEvent(event) {
      push(event);
      changed();
    },
    listAnalyticsEvents(appId) {
      const own: AnalyticsEvent[] = [];
      for (const e of events) if (e.appId === appId) own.push(e);
      return own;
    },
    findAnalyticsEvent: (appId, event) => byKey.get(eventKey(appId, event)),
  };
  return {
    port,
    clear,
    reset(appId) {
      clear(appId);
      if (appId === undefined) dropped = 0;
    },
    stats: () => ({ analyticsEvents: events.length, droppedAnalyticsEvents: dropped }),
    snapshot: () => ({ analyticsEvents: events.toArray() }),
    persistable: () => ({ analyticsEvents: events.toArray() }),
  };
}
