/**
 * createClient({ url, adminToken? }): a typed client for the control plane (/__health,
 * /__inspect, /__scenarios, /__clock; docs/reference.md#inspect and #clock) of any running emulator, over fetch.
 */
import type { Delivery, JournalEntry, NotificationRecord, Recipient } from '../schemas/records.js';
import type { ListResult } from '../domain/ports.js';
import type {
  AppList,
  AppTemplates,
  ClientOptions,
  DeliveryStats,
  ClockState,
  EmulatorClient,
  Health,
  InspectCampaign,
  Instant,
  ScenarioDetail,
  ScenarioCounters,
  ScenarioInfo,
  ScenarioList,
} from './types.js';
import { appClient } from './for-app.js';

export type * from './types.js';

/** A non-2xx answer from the emulator; `body` holds the parsed answer (the error envelope). */
export class EmulatorClientError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: unknown;
  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.name = 'EmulatorClientError';
    this.status = status;
    this.body = body;
    this.code = (body as { error?: { code?: string } } | undefined)?.error?.code;
  }
}

type QueryValue = string | number | boolean | Date | undefined | null;

function queryString(query: object = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query) as [string, QueryValue][]) {
    if (value === undefined || value === null) continue;
    params.set(key, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const toIso = (instant: Instant): string => (instant instanceof Date ? instant.toISOString() : instant);

export function createClient(options: ClientOptions): EmulatorClient {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function request(
    method: string,
    path: string,
    body?: unknown,
    accept: number[] = [],
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = {};
    if (options.adminToken !== undefined) headers.authorization = `Bearer ${options.adminToken}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await doFetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep the text */
    }
    if (!res.ok && !accept.includes(res.status)) {
      const error = (parsed as { error?: { code?: string; devMessage?: string; message?: string } } | undefined)?.error;
      const why = error ? `${error.code}: ${error.devMessage ?? error.message}` : String(text).slice(0, 200);
      throw new EmulatorClientError(`${method} ${path} answered ${res.status} (${why})`, res.status, parsed);
    }
    return { status: res.status, body: parsed };
  }
  const get = async <T>(path: string): Promise<T> => (await request('GET', path)).body as T;
  const send = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    (await request(method, path, body)).body as T;
  const seg = encodeURIComponent;

  const client: EmulatorClient = {
    url: base,
    health: () => get<Health>('/__health'),
    deliveries: (query = {}) => get<ListResult<Delivery>>(`/__inspect/deliveries${queryString(query)}`),
    async waitForDeliveries(query, { count, timeoutMs }) {
      const path = `/__inspect/deliveries${queryString({ ...query, waitFor: count, timeoutMs })}`;
      const res = await request('GET', path, undefined, [408]);
      const result = res.body as ListResult<Delivery>;
      if (res.status === 408) {
        const filter = JSON.stringify(
          Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'limit' && k !== 'offset')),
        );
        throw new EmulatorClientError(
          `waited ${timeoutMs ?? 5000} ms for ${count} deliveries matching ${filter}, but only ${result.total} matched`,
          408,
          result,
        );
      }
      return result;
    },
    notifications: (query = {}) => get<ListResult<NotificationRecord>>(`/__inspect/notifications${queryString(query)}`),
    requests: (query = {}) => get<ListResult<JournalEntry>>(`/__inspect/requests${queryString(query)}`),
    request: (id) => get<JournalEntry>(`/__inspect/requests/${seg(id)}`),
    campaigns: (query = {}) => get<ListResult<InspectCampaign>>(`/__inspect/campaigns${queryString(query)}`),
    delivery: (id) => get<Delivery>(`/__inspect/deliveries/${seg(id)}`),
    deliveryStats: (query = {}) => get<DeliveryStats>(`/__inspect/delivery-stats${queryString(query)}`),
    apps: () => get<AppList>('/__apps'),
    appTemplates: (appId, { seed } = {}) =>
      get<AppTemplates>(`/__apps/${seg(appId)}/templates${queryString({ seed })}`),
    campaign: (id) => get<InspectCampaign>(`/__inspect/campaigns/${seg(id)}`),
    campaignRecipients: (id, query = {}) =>
      get<ListResult<Recipient>>(`/__inspect/campaigns/${seg(id)}/recipients${queryString(query)}`),
    async reset({ appId } = {}) {
      await send('DELETE', `/__inspect${queryString({ appId })}`);
    },
    async resetAll({ appId } = {}) {
      await send('POST', `/__reset${queryString({ appId })}`);
    },
    scenarios: {
      list: () => get<ScenarioList>('/__scenarios'),
      get: (name) => get<ScenarioDetail>(`/__scenarios/${seg(name)}`),
      activate: (names) => send<{ active: string[] }>('PUT', '/__scenarios/active', { names }),
      load: (scenario) => send<{ replaced: boolean; scenario: ScenarioInfo }>('POST', '/__scenarios', scenario),
      reset: () => send<ScenarioCounters>('POST', '/__scenarios/reset'),
      remove: (name) => send<{ deleted: string; active: string[] }>('DELETE', `/__scenarios/${seg(name)}`),
    },
    clock: {
      get: () => get<ClockState>('/__clock'),
      advance: (ms) => send<ClockState>('POST', '/__clock', { advanceMs: ms }),
      set: (instant) => send<ClockState>('POST', '/__clock', { now: toIso(instant) }),
      real: () => send<ClockState>('POST', '/__clock', { mode: 'real' }),
    },
    forApp: (appId) => appClient(appId, { get, send, queryString, client }),
  };
  return client;
}
