/**
 * The journal's one way in: an answered request becomes an entry in the store, a line in the
 * debug log and an event on the stream. Transport-neutral; the journal step (journal-step.ts)
 * is what both transports call, so that both keep the same entry for the same request (and
 * share header sets).
 */
import type { Emulator } from '../emulator.js';
import type { JournalEntry, UpstreamCall } from '../schemas/records.js';
import type { AppliedRuleInfo, RequestScope } from '../scenario-engine/engine.js';
import type { Kept } from './journal-bodies.js';
import { joined, plainNodeHeaders } from './plain-headers.js';
import type { NodeHeaders } from './request-seams.js';

/** Header values never kept in the journal. */
const MASKED_HEADERS = new Set(['apikey', 'authorization']);

/** Shared by every entry no scenario rule applied to: one array fewer kept per request. */
const NO_RULES: JournalEntry['rules'] = Object.freeze([]) as unknown as JournalEntry['rules'];

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
  upstream?: UpstreamCall | undefined;
}

const entryRules = (rules: readonly AppliedRuleInfo[]): JournalEntry['rules'] =>
  rules.map((r) => ({ scenario: r.scenario, index: r.index, rule: r.rule }));

/** Takes an answered request into the journal, the debug log and the event stream. */
export type RequestRecorder = (answered: AnsweredRequest) => void;

/** The recorder over an emulator's store, logger and event stream (the app makes one, shared by both transports). */
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
