/**
 * GET /__inspect/stream (docs/reference.md#inspect): Server-Sent Events, one per delivery, campaign
 * change, notification and API request (event name = type, data = the record as JSON),
 * filtered by appId / campaignId / userId / types, with a heartbeat comment.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { EmulatorEvent } from '../../domain/ports.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { STREAM_EVENT_TYPES, StreamQuerySchema, type StreamQuery } from '../../schemas/control.js';
import { parseQuery } from '../validate.js';
import { realNow } from '../../platform/clock.js';

/**
 * Events waiting for a client that reads slowly: past this many, new events are dropped
 * (memory stays bounded whatever the client does) and the stream says so with a `dropped`
 * event, `data: {"dropped": n}`, sent before the next event that does get through.
 */
export const MAX_QUEUED_EVENTS = 10_000;

/** Writing goes on for at most this long before the stream yields to other work. */
const WRITE_SLICE_MS = 5;

/** The record an event carries: what the stream sends as `data`. */
function payloadOf(event: EmulatorEvent): { appId: string | null; campaignId?: string | null; userId?: string } {
  switch (event.type) {
    case 'delivery':
      return event.delivery;
    case 'campaign':
      return event.campaign;
    case 'notification':
      return event.notification;
    case 'request':
      return event.entry;
  }
}

/** Filters apply to the records that carry the field; a request matches a campaignId named in its path. */
export function streamFilter(query: StreamQuery): (event: EmulatorEvent) => boolean {
  const types = new Set<string>(query.types ?? STREAM_EVENT_TYPES);
  return (event) => {
    if (!types.has(event.type)) return false;
    const record = payloadOf(event);
    if (query.appId !== undefined && record.appId !== query.appId) return false;
    if (query.campaignId !== undefined) {
      const own = event.type === 'campaign' ? event.campaign.id : record.campaignId;
      const inPath = event.type === 'request' && event.entry.path.includes(query.campaignId);
      if (!inPath && own !== query.campaignId) return false;
    }
    if (query.userId !== undefined && record.userId !== query.userId) return false;
    return true;
  };
}

export function streamRoutes({ events }: Pick<Emulator, 'events'>) {
  return new Hono<AppEnv>().get('/', (c) => {
    const query = parseQuery(c, StreamQuerySchema);
    const matches = streamFilter(query);
    return streamSSE(c, async (stream) => {
      let queue: (EmulatorEvent | undefined)[] = [];
      let head = 0;
      let dropped = 0;
      let done = false;
      let wake: (() => void) | undefined;
      const unsubscribe = events.subscribe((event) => {
        if (done || !matches(event)) return;
        if (queue.length - head >= MAX_QUEUED_EVENTS) dropped++;
        else queue.push(event);
        wake?.();
      });
      const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n'), query.heartbeatMs);
      heartbeat.unref();
      stream.onAbort(() => {
        done = true;
        wake?.();
      });
      let sliceStarted = realNow();
      try {
        await stream.write(': connected\n\n');
        while (!done) {
          if (head === queue.length) {
            queue = [];
            head = 0;
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
            sliceStarted = realNow();
            continue;
          }
          if (dropped > 0) {
            const data = JSON.stringify({
              dropped,
              reason: `the client read too slowly (over ${MAX_QUEUED_EVENTS} events waiting)`,
            });
            dropped = 0;
            await stream.writeSSE({ event: 'dropped', data });
          }
          const event = queue[head] as EmulatorEvent;
          // Sent events leave the queue at once: a reader that never catches up must not keep them all.
          queue[head++] = undefined;
          if (head > 1024 && head * 2 > queue.length) {
            queue = queue.slice(head);
            head = 0;
          }
          await stream.writeSSE({ event: event.type, data: JSON.stringify(payloadOf(event)) });
          // A socket takes each write at once, so the loop would send a whole 10,000-target batch
          // in one turn of the event loop (~200 ms): it lets other requests in between slices.
          if (realNow() - sliceStarted > WRITE_SLICE_MS) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            sliceStarted = realNow();
          }
        }
      } finally {
        // Unsubscribe when the client disconnects (or the server closes the connection).
        done = true;
        unsubscribe();
        clearInterval(heartbeat);
      }
    });
  });
}
