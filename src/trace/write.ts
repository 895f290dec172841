/**
 * A trace as text, streamed: the header on the first line, then each record list with one
 * record per line (the layout read.ts takes line by line, so neither side ever holds the
 * whole document as one string). The writer works in slices (slices.ts): /__health keeps
 * answering while a million deliveries go out.
 */
import { PASSED_OVER, TRACE_LIST_NAMES, type TraceSource } from './schema.js';
import { Slices } from './slices.js';

/** Text handed out at once: big enough for few writes, small enough to stay off the large-object heap. */
const CHUNK_CHARS = 64 * 1024;

/** The trace's text in chunks of about CHUNK_CHARS; the lists are read as it goes. */
export async function* traceChunks(source: TraceSource): AsyncGenerator<string> {
  const header: Record<string, unknown> = { ...source };
  for (const name of TRACE_LIST_NAMES) delete header[name];
  let chunk = JSON.stringify(header).slice(0, -1) + ',\n';
  const slices = new Slices();
  for (const [i, name] of TRACE_LIST_NAMES.entries()) {
    chunk += `${JSON.stringify(name)}:[`;
    let first = true;
    for (const record of source[name]) {
      if (record !== PASSED_OVER) {
        chunk += (first ? '\n' : ',\n') + JSON.stringify(record);
        first = false;
        if (chunk.length >= CHUNK_CHARS) {
          yield chunk;
          chunk = '';
        }
      }
      if (slices.spent()) await slices.next();
    }
    chunk += i === TRACE_LIST_NAMES.length - 1 ? '\n]}\n' : '\n],\n';
  }
  yield chunk;
}

/** The chunks as a byte stream, pulled as the reader (a socket, a file) takes them. */
export function traceStream(source: TraceSource): ReadableStream<Uint8Array> {
  const chunks = traceChunks(source);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
