/**
 * createClient(…).forApp(appId): the control plane scoped to one app (its clock, scenario
 * set, counters, records and reset), so a test file on its own app reads as if it had the
 * emulator to itself (docs/reference.md#apps-as-namespaces).
 */
import type { JournalEntry, NotificationRecord, Recipient } from '../schemas/records.js';
import type { ListResult } from '../domain/ports.js';
import type {
  ActiveScenarios,
  AppClient,
  ClockState,
  EmulatorClient,
  InspectCampaign,
  Instant,
  ScenarioCounters,
  ScenarioDetail,
  ScenarioList,
} from './types.js';

/** What forApp needs of the client it scopes: GET and a request with a body, and the query builder. */
export interface ClientTransport {
  get<T>(path: string): Promise<T>;
  send<T>(method: string, path: string, body?: unknown): Promise<T>;
  queryString(query?: object): string;
  client: Pick<EmulatorClient, 'deliveries' | 'waitForDeliveries'>;
}

const toIso = (instant: Instant): string => (instant instanceof Date ? instant.toISOString() : instant);

export function appClient(appId: string, { get, send, queryString, client }: ClientTransport): AppClient {
  const q = (query: object = {}) => queryString({ ...query, appId });
  const seg = encodeURIComponent;
  const clockPath = `/__clock${q()}`;
  return {
    appId,
    clock: {
      get: () => get<ClockState>(clockPath),
      advance: (ms) => send<ClockState>('POST', clockPath, { advanceMs: ms }),
      set: (instant) => send<ClockState>('POST', clockPath, { now: toIso(instant) }),
      real: () => send<ClockState>('POST', clockPath, { mode: 'real' }),
      useShared: () => send<ClockState>('DELETE', clockPath),
    },
    scenarios: {
      list: () => get<ScenarioList>(`/__scenarios${q()}`),
      get: (name) => get<ScenarioDetail>(`/__scenarios/${seg(name)}${q()}`),
      activate: (names) => send<ActiveScenarios>('PUT', `/__scenarios/active${q()}`, { names }),
      useGlobal: () => send<ActiveScenarios>('DELETE', `/__scenarios/active${q()}`),
      reset: () => send<ScenarioCounters>('POST', `/__scenarios/reset${q()}`),
    },
    async reset() {
      await send('POST', `/__reset${q()}`);
    },
    async clear() {
      await send('DELETE', `/__inspect${q()}`);
    },
    deliveries: (query = {}) => client.deliveries({ ...query, appId }),
    waitFor: (query, options) => client.waitForDeliveries({ ...query, appId }, options),
    notifications: (query = {}) => get<ListResult<NotificationRecord>>(`/__inspect/notifications${q(query)}`),
    requests: (query = {}) => get<ListResult<JournalEntry>>(`/__inspect/requests${q(query)}`),
    campaigns: (query = {}) => get<ListResult<InspectCampaign>>(`/__inspect/campaigns${q(query)}`),
    campaign: (id) => get<InspectCampaign>(`/__inspect/campaigns/${seg(id)}${q()}`),
    campaignRecipients: (id, query = {}) =>
      get<ListResult<Recipient>>(`/__inspect/campaigns/${seg(id)}/recipients${q(query)}`),
    request: (id) => get<JournalEntry>(`/__inspect/requests/${seg(id)}${q()}`),
  };
}
