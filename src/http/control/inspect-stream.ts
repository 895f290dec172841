/**
 * GET /__inspect/stream (docs/reference.md#inspect): Server-Sent Events, one per delivery, campaign
 * change, notification and API request (event name = type, data = the record as JSON),
 * filtered as src/inspect/stream-filter.ts says, with a heartbeat comment.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { EmulatorEvent } from '../../domain/ports.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { StreamQuerySchema } from '../../schemas/control.js';
import { createEventQueue } from '../../inspect/event-queue.js';
import { payloadOf } from '../../inspect/stream-filter.js';
import { parseQuery } from '../validate.js';
import { realNow } from '../../platform/clock.js';

/**
 * Events waiting for a client that reads slowly: past this many, new events are dropped
 * (memory stays bounded whatever the client does) and the stream says so with a `dropped`
 * event, `data: {"dropped": n}`, sent before the next event that does get through.
 */
const MAX_QUEUED_EVENTS = 10_000;

/** Writing goes on for at most this long before the stream yields to other work. */
const WRITE_SLICE_MS = 5;
/** Text gathered before one write (events are written together, not one by one). */
const MAX_WRITE_CHARS = 1 << 20;

/**
 * One event as Server-Sent Events text, as streamSSE's writeSSE writes it: `data` is JSON,
 * which holds no raw line break, so it is one `data:` line.
 */
const sseEvent = (event: string, data: string) => `event: ${event}\ndata: ${data}\n\n`;

export function inspectStreamRoutes({ reads }: Pick<ControlParts, 'reads'>) {
  return new Hono<AppEnv>().get('/', (c) => {
    const query = parseQuery(c, StreamQuerySchema);
    return streamSSE(c, async (stream) => {
      const queue = createEventQueue<EmulatorEvent>(MAX_QUEUED_EVENTS);
      const unsubscribe = reads.stream.subscribe(query, (event) => queue.push(event));
      const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n'), query.heartbeatMs);
      heartbeat.unref();
      stream.onAbort(() => queue.close());
      let sliceStarted = realNow();
      try {
        await stream.write(': connected\n\n');
        while (!queue.closed) {
          if (queue.size === 0) {
            await queue.whenReady();
            sliceStarted = realNow();
            continue;
          }
          // The events ready in this slice as one write: a write per event (a socket write each)
          // was the emulator's largest cost under a reader of every delivery (bench/: soak).
          let text = '';
          do {
            const dropped = queue.takeDropped();
            if (dropped > 0) {
              const reason = `the client read too slowly (over ${MAX_QUEUED_EVENTS} events waiting)`;
              text += sseEvent('dropped', JSON.stringify({ dropped, reason }));
            }
            const event = queue.take() as EmulatorEvent;
            text += sseEvent(event.type, JSON.stringify(payloadOf(event)));
          } while (queue.size > 0 && text.length < MAX_WRITE_CHARS && realNow() - sliceStarted <= WRITE_SLICE_MS);
          await stream.write(text);
          // A socket takes each write at once, so the loop would send a whole 10,000-target batch
          // in one turn of the event loop (~200 ms): it lets other requests in between slices.
          if (realNow() - sliceStarted > WRITE_SLICE_MS) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            sliceStarted = realNow();
          }
        }
      } finally {
        // Unsubscribe when the client disconnects (or the server closes the connection).
        queue.close();
        unsubscribe();
        clearInterval(heartbeat);
      }
    });
  });
}
