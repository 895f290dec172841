/**
 * A request's and an answer's bodies as the journal keeps them: decoded as the app reads a
 * body, and capped at 64 KiB of UTF-8. Transport-neutral: the journal step (journal-step.ts)
 * takes what either transport read, text or bytes.
 */
import { isAscii } from 'node:buffer';

/** Each body is kept up to this many bytes of UTF-8. */
const JOURNAL_BODY_LIMIT = 64 * 1024;

const decoder = new TextDecoder();

/** A body as an entry keeps it: its text (none: null) and whether it was cut. */
export type Kept = { readonly text: string | null; readonly truncated: boolean };

export const NO_BODY: Kept = Object.freeze({ text: null, truncated: false });

/** A body that was sent but not read (a request refused before its route read a large body). */
export const NOT_KEPT = Symbol('not kept');

const NOT_KEPT_BODY: Kept = Object.freeze({ text: null, truncated: true });

/** A body as a transport read it: its text, its bytes, none, or sent but not read (NOT_KEPT). */
export type BodyRead = { text: string } | { bytes: Uint8Array } | null | typeof NOT_KEPT;

/**
 * The body as the app reads it: UTF-8, a leading BOM dropped, invalid bytes replaced. Bytes
 * that are all ASCII (nearly every JSON body) read the same as Latin-1, which is a plain copy
 * per chunk, without joining the chunks first: a 10,000-target batch body takes ~15 µs so,
 * against ~160 µs joined and decoded (docs/performance.md).
 */
export function bodyText(chunks: readonly Buffer[]): string {
  let text = '';
  for (const chunk of chunks) {
    if (!isAscii(chunk)) return decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    text += chunk.toString('latin1');
  }
  return text;
}

/** A request body as its entry keeps it: an empty one is none. */
export function keptRequest(read: BodyRead): Kept {
  if (read === null) return NO_BODY;
  if (read === NOT_KEPT) return NOT_KEPT_BODY;
  const kept = 'text' in read ? capText(read.text) : capBinary(read.bytes);
  return kept.text === '' ? NO_BODY : kept;
}

/** An answer's body as its entry keeps it: its text, or NOT_KEPT when it could not be read. */
export const keptResponse = (text: string | null | typeof NOT_KEPT): Kept =>
  text === null ? NO_BODY : text === NOT_KEPT ? NOT_KEPT_BODY : capText(text);

/** At most JOURNAL_BODY_LIMIT bytes of UTF-8, cut on a character boundary. */
function capText(text: string): Kept {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short texts need no byte count.
  if (text.length * 3 <= JOURNAL_BODY_LIMIT) return { text, truncated: false };
  // A long body: its first JOURNAL_BODY_LIMIT units are as many bytes when they are ASCII (a
  // 10,000-target send), which spares encoding the whole body and decoding the cut.
  const head = text.slice(0, JOURNAL_BODY_LIMIT);
  const headBytes = Buffer.byteLength(head);
  if (text.length <= JOURNAL_BODY_LIMIT && headBytes <= JOURNAL_BODY_LIMIT) return { text, truncated: false };
  // Copied out (latin1 is a plain byte copy for ASCII): a slice would keep the whole body alive in the journal.
  if (headBytes === head.length)
    return { text: Buffer.from(head, 'latin1').toString('latin1'), truncated: text.length > JOURNAL_BODY_LIMIT };
  if (Buffer.byteLength(text) <= JOURNAL_BODY_LIMIT) return { text, truncated: false };
  return { text: capBytes(Buffer.from(text)), truncated: true };
}

/** The first JOURNAL_BODY_LIMIT bytes as text, without a character cut in half at the end. */
function capBytes(bytes: Uint8Array): string {
  let end = Math.min(bytes.byteLength, JOURNAL_BODY_LIMIT);
  // Step back over continuation bytes (10xxxxxx) to the start of the last whole character.
  if (end < bytes.byteLength) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return decoder.decode(bytes.subarray(0, end));
}

function capBinary(bytes: Uint8Array): Kept {
  return { text: capBytes(bytes), truncated: bytes.byteLength > JOURNAL_BODY_LIMIT };
}
