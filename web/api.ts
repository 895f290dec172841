/**
 * The page's one data path: the package's typed control-plane client (src/client), with the
 * admin token from this tab's sessionStorage, and the live stream read with fetch (so it can
 * send the token header too).
 */
import {
  createClient,
  EmulatorClientError,
  type CampaignQuery,
  type DeliveryQuery,
  type RequestQuery,
  type ScenarioInfo,
} from '../src/client/index.js';
import type { Campaign, Delivery, JournalEntry } from '../src/schemas/records.js';

export type { Campaign, Delivery, JournalEntry };
export { EmulatorClientError };

const TOKEN_KEY = 'notification-emulator.admin-token';

export const token = {
  get: (): string | undefined => sessionStorage.getItem(TOKEN_KEY) ?? undefined,
  set: (value: string) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** Called when the control plane answers 401: the page asks for the token. */
let onUnauthorized: (() => void) | undefined;
export const whenUnauthorized = (fn: () => void) => (onUnauthorized = fn);

const authFetch: typeof fetch = async (input, init = {}) => {
  const headers = new Headers(init.headers);
  const t = token.get();
  if (t !== undefined) headers.set('authorization', `Bearer ${t}`);
  const res = await fetch(input, { ...init, headers });
  if (res.status === 401) onUnauthorized?.();
  return res;
};

export const client = createClient({ url: location.origin, fetch: authFetch });

export const query = (params: Record<string, string | number | undefined | null>): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : '';
};

/** A journal entry: request query, masked headers and both bodies (capped, with a truncated mark). */
export type JournalDetail = JournalEntry;

/** The answers of GET /__scenarios, as the typed client derives them from the OpenAPI schemas. */
export type ScenarioView = ScenarioInfo;
export type RuleView = ScenarioInfo['rules'][number];

export type {
  AppTemplates,
  DeliveryStats,
  InspectCampaign,
  TemplateSample as TemplateInfo,
} from '../src/client/index.js';

type Params = Record<string, string | number | undefined>;
/** Empty form fields are left out of the query. */
const clean = (params: Params): Params =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== ''));

/** The calls the views make, all through the typed client (filters come from the URL as text). */
export const api = {
  apps: () => client.apps(),
  templates: (appId: string, seed?: number) => client.appTemplates(appId, { seed }),
  delivery: (id: string) => client.delivery(id),
  stats: () => client.deliveryStats(),
  deliveries: (params: Params) => client.deliveries(clean(params) as DeliveryQuery),
  requests: (params: Params) => client.requests(clean(params) as RequestQuery),
  request: (id: string) => client.request(id),
  campaigns: (params: Params) => client.campaigns(clean(params) as CampaignQuery),
  scenarios: () => client.scenarios.list(),
  reset: (appId?: string) => client.resetAll({ appId }),
};

export type StreamType = 'delivery' | 'campaign' | 'request' | 'notification';
export type StreamState = 'live' | 'reconnecting' | 'refused';

/**
 * Reads GET /__inspect/stream with fetch (EventSource cannot send the authorization header)
 * and reconnects after a second when the connection ends, until `signal` aborts.
 */
export function openStream(
  params: Record<string, string | undefined>,
  onEvent: (type: StreamType, data: unknown) => void,
  signal: AbortSignal,
  onState: (state: StreamState) => void = () => {},
): void {
  const run = async () => {
    while (!signal.aborted) {
      try {
        const res = await authFetch(`/__inspect/stream${query(params)}`, {
          signal,
          headers: { accept: 'text/event-stream' },
        });
        // A refused query (or token) does not heal by asking again: the list's own request shows why.
        if (res.status >= 400 && res.status < 500) return onState('refused');
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        onState('live');
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          // One split per chunk (a chunk may hold thousands of events: no slice per event).
          const frames = buffer.split('\n\n');
          buffer = frames.pop() ?? '';
          for (const frame of frames) {
            if (frame === '' || frame.startsWith(':')) continue;
            let event = 'message';
            let data = '';
            for (const line of frame.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('data:')) data += line.slice(5).trimStart();
            }
            onEvent(event as StreamType, JSON.parse(data));
          }
        }
      } catch {
        if (signal.aborted) return;
      }
      if (signal.aborted) return;
      onState('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  void run();
}

/** A function called at most once per animation frame with everything queued since the last call. */
export function frameBatcher<T>(
  flush: (items: T[], skipped: number) => void,
  max = Infinity,
): { push(item: T): void; cancel(): void } {
  let queue: T[] = [];
  let skipped = 0;
  let frame = 0;
  return {
    push(item) {
      queue.push(item);
      // A hidden tab gets no frames: keep only the newest `max` meanwhile.
      if (queue.length > 2 * max) {
        skipped += queue.length - max;
        queue = queue.slice(-max);
      }
      if (frame === 0) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          const items = queue;
          const gone = skipped;
          queue = [];
          skipped = 0;
          flush(items, gone);
        });
      }
    },
    cancel() {
      if (frame !== 0) cancelAnimationFrame(frame);
      frame = 0;
      queue = [];
      skipped = 0;
    },
  };
}
