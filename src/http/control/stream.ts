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

/** A client that stops reading loses events past this many rather than growing memory without end. */
const MAX_QUEUED_EVENTS = 200_000;

/** The record an event carries: what the stream sends as `data`. */
function payloadOf(event: EmulatorEvent): { appId: string | null; campaignId?: string | null; userId?: string } {
  switch (event.type) {
    case 'delivery':
      return event.delivery;
    case 'campaign':
      return event.campaign;
    case 'notification':
      return event.notification;
    case 'recipient':
      return event.recipient;
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

export function streamRoutes(emulator: Emulator) {
  return new Hono<AppEnv>().get('/', (c) => {
    const query = parseQuery(c, StreamQuerySchema);
    const matches = streamFilter(query);
    const events = emulator.events;
    return streamSSE(c, async (stream) => {
      let queue: EmulatorEvent[] = [];
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
      try {
        await stream.write(': connected\n\n');
        while (!done) {
          if (head === queue.length) {
            queue = [];
            head = 0;
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
            continue;
          }
          if (dropped > 0) {
            await stream.write(`: ${dropped} event(s) dropped: the client read too slowly\n\n`);
            dropped = 0;
          }
          const event = queue[head++] as EmulatorEvent;
          await stream.writeSSE({ event: event.type, data: JSON.stringify(payloadOf(event)) });
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
