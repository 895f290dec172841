/** The live stream as routes read it: the events a query's filters let through (src/inspect/stream-filter.ts). */
import type { EmulatorEvent, Events } from '../domain/ports.js';
import { streamFilter } from '../inspect/stream-filter.js';
import type { StreamQuery } from '../schemas/control.js';

export function streamReads({ events }: { events: Events }) {
  return {
    /** Calls `deliver` with each event that matches `query` from now on; returns the unsubscribe. */
    subscribe(query: StreamQuery, deliver: (event: EmulatorEvent) => void): () => void {
      const matches = streamFilter(query);
      return events.subscribe((event) => {
        if (matches(event)) deliver(event);
      });
    },
  };
}
