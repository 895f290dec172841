/**
 * The request journal as HAR 1.2 (GET /__inspect/requests.har), for browser devtools and HAR
 * viewers. The journal keeps request headers (keys masked), both bodies and the duration;
 * it keeps no response headers, so the HAR names the content type the body was answered with
 * (every API answer is JSON) and says so in the entry's comment.
 */
import { STATUS_CODES } from 'node:http';
import type { JournalEntry } from '../schemas/records.js';
import { VERSION } from '../version.js';

interface HarHeader {
  name: string;
  value: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const byteLength = (text: string | null) => (text === null ? 0 : Buffer.byteLength(text));

function queryString(query: string): HarHeader[] {
  return [...new URLSearchParams(query)].map(([name, value]) => ({ name, value }));
}

/** What the comment says: the scenario rules that applied, and what the journal cut. */
function commentOf(entry: JournalEntry): string {
  const notes = entry.rules.map((r) => `scenario "${r.scenario}" ${r.rule}`);
  if (entry.upstream !== undefined) notes.push(upstreamNote(entry.upstream));
  if (entry.requestBodyTruncated) notes.push('request body truncated by the journal');
  if (entry.responseBodyTruncated) notes.push('response body truncated by the journal');
  notes.push(`journal entry ${entry.id}; response headers are not journaled`);
  return notes.join('; ');
}

/** Proxy mode: where the call went and what came back, in the comment's words (`_upstream` has it whole). */
function upstreamNote(upstream: NonNullable<JournalEntry['upstream']>): string {
  if (upstream.status === null) return `forwarded to ${upstream.url}: no answer (${upstream.error ?? 'failed'})`;
  const broken = upstream.violations.length;
  return (
    `forwarded to ${upstream.url}: answered ${upstream.status}` +
    (broken ? `, ${broken} violation${broken === 1 ? '' : 's'} of the OpenAPI document` : '')
  );
}

function harEntry(entry: JournalEntry, origin: string) {
  const started = Date.parse(entry.time) - entry.durationMs;
  const requestType = entry.requestHeaders['content-type'] ?? 'application/octet-stream';
  return {
    startedDateTime: new Date(started).toISOString(),
    time: entry.durationMs,
    request: {
      method: entry.method,
      url: `${origin}${entry.path}${entry.query ? `?${entry.query}` : ''}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: Object.entries(entry.requestHeaders).map(([name, value]) => ({ name, value })),
      queryString: queryString(entry.query),
      ...(entry.requestBody === null ? {} : { postData: { mimeType: requestType, text: entry.requestBody } }),
      headersSize: -1,
      bodySize: byteLength(entry.requestBody),
    },
    response: {
      status: entry.status,
      statusText: STATUS_CODES[entry.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: entry.responseBody === null ? [] : [{ name: 'content-type', value: JSON_TYPE }],
      content: {
        size: byteLength(entry.responseBody),
        mimeType: entry.responseBody === null ? 'x-unknown' : JSON_TYPE,
        ...(entry.responseBody === null ? {} : { text: entry.responseBody }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: byteLength(entry.responseBody),
    },
    cache: {},
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
    comment: commentOf(entry),
    // HAR's place for what is not HAR (a name starting with "_"): the journal's upstream record.
    ...(entry.upstream !== undefined && { _upstream: entry.upstream }),
  };
}

/** A HAR 1.2 document of `entries`, their URLs under `origin` (the emulator's address as the caller used it). */
export function harOf(entries: readonly JournalEntry[], origin: string) {
  return {
    log: {
      version: '1.2',
      creator: { name: 'notification-emulator', version: VERSION },
      entries: entries.map((entry) => harEntry(entry, origin)),
    },
  };
}
