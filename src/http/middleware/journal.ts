/**
 * Outermost API middleware: records every API request (refused ones too) in the journal
 * with its status, error code, app, applied scenario rules, duration, query, headers and
 * both bodies (each capped at 64 KiB).
 *
 * Bodies are taken from what this code kept on the context anyway: the request body as it
 * was read (request-body.ts), the answer as `answer` made it (answer.ts). The hot send path
 * pays for no clone and no second read (bench/).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import type { JournalEntry, UpstreamCall } from '../../schemas/records.js';
import type { AppliedRuleInfo, RequestScope } from '../../scenario-engine/engine.js';
import type { Stopwatch } from '../../platform/clock.js';
import { headersToRead, joined, plainNodeHeaders, requestHeader } from '../plain-headers.js';
import type { NodeHeaders } from '../request-seams.js';

/** Each body is kept up to this many bytes of UTF-8. */
const JOURNAL_BODY_LIMIT = 64 * 1024;

/** Header values never kept in the journal. */
const MASKED_HEADERS = new Set(['apikey', 'authorization']);

const decoder = new TextDecoder();

/** At most JOURNAL_BODY_LIMIT bytes of UTF-8, cut on a character boundary. */
function capText(text: string): { text: string; truncated: boolean } {
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

function capBinary(bytes: Uint8Array): { text: string; truncated: boolean } {
  return { text: capBytes(bytes), truncated: bytes.byteLength > JOURNAL_BODY_LIMIT };
}

const NO_BODY = { text: null, truncated: false } as const;

/** Shared by every entry no scenario rule applied to: one array fewer kept per request. */
const NO_RULES: JournalEntry['rules'] = Object.freeze([]) as unknown as JournalEntry['rules'];

/** A body that was sent but not kept (a request refused before its route read a large body). */
const NOT_KEPT = { text: null, truncated: true } as const;

type Kept = { text: string | null; truncated: boolean };

/** A body's text as an entry keeps it: capped, and none when empty or not read. */
export const keptText = (text: string | null): Kept => (text === null || text === '' ? NO_BODY : capText(text));

/**
 * The request body as the journal keeps it: what a route, a scenario matcher or the upload
 * already read (request-body.ts). A body nobody read (the request was refused first) is read
 * here only when it declares a length within the cap; a larger or chunked one is marked as
 * not kept rather than read. Synchronous in the common case (a JSON route).
 */
function requestBody(c: Context<AppEnv>): Kept | Promise<Kept> {
  const read = c.get('requestBody');
  if (read !== undefined) return 'text' in read ? capText(read.text) : capBinary(read.bytes);
  return unreadRequestBody(c);
}

async function unreadRequestBody(c: Context<AppEnv>): Promise<Kept> {
  try {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return NO_BODY;
    const length = requestHeader(c, 'content-length');
    if (length !== undefined) {
      const size = Number(length);
      if (!(size > 0)) return NO_BODY;
      return size > JOURNAL_BODY_LIMIT ? NOT_KEPT : capText(await c.req.text());
    }
    if (requestHeader(c, 'transfer-encoding') !== undefined) return NOT_KEPT;
    // Neither header: over HTTP/1.1 that is no body; in process (app.request) the body is a plain stream.
    if (c.req.raw.body === null) return NO_BODY;
    return capBinary(new Uint8Array(await c.req.arrayBuffer()));
  } catch {
    return NOT_KEPT;
  }
}

/**
 * The response body as the journal keeps it: what `answer` recorded (every API answer with a
 * body goes through it). Anything else (a Response made elsewhere) is cloned and read.
 */
function responseBody(c: Context<AppEnv>): Kept | Promise<Kept> {
  const given = c.get('answer');
  if (given !== undefined) return given.text === null ? NO_BODY : capText(given.text);
  const res = c.res;
  if (res.body === null) return NO_BODY;
  return res
    .clone()
    .text()
    .then(capText, () => NOT_KEPT);
}

/** Different header sets remembered before the memory starts over. */
const HEADER_SETS_KEPT = 1000;

/**
 * A request's headers as an entry keeps them, secrets masked. Entries whose headers are the
 * same (a client calling in a loop, a load test) share one frozen object: each entry otherwise
 * keeps an object and a string per header, and keeping records is the largest share of a
 * send's cost: the garbage collector copies them as they survive and marks them while they
 * live (docs/performance.md).
 */
function keptHeaders(): (headers: NodeHeaders) => Record<string, string> {
  const known = new Map<string, Record<string, string>>();
  // The set kept last, and its names in order: a client calling in a loop sends the same
  // headers each time, which this compares as they are, without a copy or a key.
  let last: Record<string, string> | undefined;
  let lastNames: string[] = [];
  const shown = (name: string, value: string | string[]) => (MASKED_HEADERS.has(name) ? '***' : joined(value));
  const isLast = (headers: NodeHeaders): boolean => {
    if (last === undefined) return false;
    let i = 0;
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      if (name !== lastNames[i] || shown(name, value) !== last[name]) return false;
      i++;
    }
    return i === lastNames.length;
  };
  return (headers) => {
    if (isLast(headers)) return last!;
    const copy = plainNodeHeaders(headers);
    for (const name of MASKED_HEADERS) if (name in copy) copy[name] = '***';
    // Neither names nor values can hold a line break (HTTP refuses them), so the key is unambiguous.
    let key = '';
    for (const name in copy) key += `${name}\n${copy[name]}\n`;
    let kept = known.get(key);
    if (kept === undefined) {
      if (known.size >= HEADER_SETS_KEPT) known.clear();
      kept = Object.freeze(copy);
      known.set(key, kept);
    }
    last = kept;
    lastNames = Object.keys(kept);
    return kept;
  };
}

function queryOf(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return '';
  const hash = url.indexOf('#', at);
  return url.slice(at + 1, hash < 0 ? undefined : hash);
}

/** One answered API request, as the journal takes it. */
export interface AnsweredRequest {
  method: string;
  path: string;
  /** The URL's query string, without its "?". */
  query: string;
  appId: string | null;
  status: number;
  errorCode: string | null;
  /** The scenario rules that applied, in order (none: undefined or empty). */
  rules: readonly AppliedRuleInfo[] | undefined;
  /** How rules that apply after the answer (a campaign's failDelivery rules) reach the entry. */
  laterRules?: RequestScope['followRules'];
  /** The request's headers as read (plain-headers.ts): never kept or changed, the journal keeps a masked copy. */
  headers: NodeHeaders;
  request: Kept;
  response: Kept;
  durationMs: number;
  /** Proxy mode: what the live service was asked and answered (absent for a call answered here). */
  upstream?: UpstreamCall;
}

const entryRules = (rules: readonly AppliedRuleInfo[]): JournalEntry['rules'] =>
  rules.map((r) => ({ scenario: r.scenario, index: r.index, rule: r.rule }));

/** Takes an answered request into the journal, the debug log and the event stream. */
export type RequestRecorder = (answered: AnsweredRequest) => void;

/**
 * The journal's one way in, shared by the middleware and the send fast path (http/send-fast-path.ts),
 * so that both keep the same entry for the same request (and share header sets).
 */
export function requestRecorder(emulator: Emulator): RequestRecorder {
  const { logger } = emulator;
  // `--log-level debug`: one line per request; decided once, so other levels pay nothing per request.
  const logRequests = logger.level === undefined || logger.level === 'debug';
  const headersOf = keptHeaders();
  return (answered) => {
    const { rules, request, response } = answered;
    const last = rules?.at(-1);
    const entry: JournalEntry = {
      id: emulator.ids.objectId(),
      // The app's clock: an app on a clock of its own finds its requests at its own instants.
      time: (answered.appId === null ? emulator.clock : emulator.clocks.currentOf(answered.appId)).nowIso(),
      method: answered.method,
      path: answered.path,
      query: answered.query,
      appId: answered.appId,
      status: answered.status,
      errorCode: answered.errorCode,
      scenario: last?.scenario ?? null,
      rule: last?.rule ?? null,
      rules: rules?.length ? entryRules(rules) : NO_RULES,
      requestHeaders: headersOf(answered.headers),
      requestBody: request.text,
      requestBodyTruncated: request.truncated,
      responseBody: response.text,
      responseBodyTruncated: response.truncated,
      durationMs: answered.durationMs,
    };
    if (answered.upstream !== undefined) entry.upstream = answered.upstream;
    emulator.store.addJournal(entry);
    answered.laterRules?.((later) => emulator.store.setJournalRules(entry.id, entryRules(later)));
    if (logRequests) logger.debug(requestLine(entry));
    if (emulator.events.hasSubscribers()) emulator.events.emit({ type: 'request', entry });
  };
}

/** Milliseconds since `started` on `stopwatch` (the emulator's), to the hundredth. */
export const durationSince = (stopwatch: Stopwatch, started: number): number =>
  Math.round((stopwatch() - started) * 100) / 100;

export function journal(record: RequestRecorder, stopwatch: Stopwatch): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = stopwatch();
    try {
      await next();
    } finally {
      // c.get, not c.var: hono builds a fresh object on every c.var read (hot path, see bench/).
      const durationMs = durationSince(stopwatch, started);
      const status = c.res.status;
      // Awaited only when not already at hand (a body the route never read, an in-process Response).
      const sent = status === 499 ? NO_BODY : requestBody(c);
      const read = sent instanceof Promise ? await sent : sent;
      const answered = status === 499 ? NO_BODY : responseBody(c);
      const scope = c.get('scenarioScope');
      record({
        method: c.req.method,
        path: c.req.path,
        query: queryOf(c.req.url),
        appId: c.get('appId') ?? requestHeader(c, 'appid') ?? null,
        status,
        errorCode: c.get('answer')?.errorCode ?? null,
        rules: scope?.appliedRules(),
        laterRules: scope?.followRules,
        headers: headersToRead(c),
        request: read.text === '' ? NO_BODY : read,
        response: answered instanceof Promise ? await answered : answered,
        durationMs,
        upstream: c.get('upstream'),
      });
    }
  };
}

/** `POST /api/notifications/send app=shop → 400 ERR_INVALID_VARIABLES (3.2 ms) [scenario flaky rule 1]` */
function requestLine(entry: {
  method: string;
  path: string;
  appId: string | null;
  status: number;
  errorCode: string | null;
  scenario: string | null;
  rule: string | null;
  durationMs: number;
}): string {
  const code = entry.errorCode ? ` ${entry.errorCode}` : '';
  const rule = entry.scenario ? ` [scenario ${entry.scenario}, ${entry.rule}]` : '';
  const app = entry.appId ?? '-';
  return `${entry.method} ${entry.path} app=${app} → ${entry.status}${code} (${entry.durationMs} ms)${rule}`;
}
