/** The API's analytics reads, each on its own turn of the event loop (none is kept). */
import type { AnalyticsService } from '../domain/analytics.js';
import type { ChannelAnalyticsQuery, RollupBody } from '../schemas/analytics.js';
import type { ReadRoom } from './read-room.js';

export function analyticsReads(room: ReadRoom, { analytics }: { analytics: AnalyticsService }) {
  return {
    async channels(appId: string, query: ChannelAnalyticsQuery) {
      await room.turn();
      return analytics.channels(appId, query);
    },
    async user(appId: string, userId: string) {
      await room.turn();
      return analytics.user(appId, userId);
    },
    /** The rollup answers from a pass over the app's events: a read, whatever its method. */
    async rollup(appId: string, body: RollupBody) {
      await room.turn();
      return analytics.rollup(appId, body);
    },
  };
}
