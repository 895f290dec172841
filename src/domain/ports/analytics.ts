/** The analytics store port: events recorded through POST /api/analytics/events. */
import type { AnalyticsEvent } from '../../schemas/analytics.js';

export interface AnalyticsStore {
  /** Recorded analytics events, oldest first; cleared by clear(). */
  addAnalyticsEvent(event: AnalyticsEvent): void;
  /** The app's events, oldest first, each built as it is iterated (a million are never held at once). */
  listAnalyticsEvents(appId: string): Iterable<AnalyticsEvent>;
  /** The app's events of one user, oldest first (read from an index: no pass over every event). */
  listUserAnalyticsEvents(appId: string, userId: string): readonly AnalyticsEvent[];
  /** The app's event of this type for this user and campaign (or notification), if one was recorded. */
  findAnalyticsEvent(
    appId: string,
    event: Pick<AnalyticsEvent, 'campaignId' | 'userId' | 'eventType'>,
  ): AnalyticsEvent | undefined;
}
