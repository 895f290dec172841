/**
 * Types of the control-plane client: queries (what /__inspect, /__clock and /__scenarios
 * accept, docs/reference.md#inspect and #clock) and answers. The answers are z.infer of the
 * schemas the OpenAPI document is built from (type imports only: the client bundles no schema).
 */
import type { Delivery, JournalEntry, NotificationRecord, Recipient } from '../schemas/records.js';
import type {
  AppList,
  DeliveryStats,
  DeliveryStatsQuery as DeliveryStatsQueryRead,
} from '../schemas/control-inspector.js';
import type { AppTemplates } from '../domain/template-view.js';
import type { CampaignFilter, JournalFilter, ListResult, RecipientFilter } from '../domain/ports.js';
import type { DeliveryFilterSchema, NotificationFilterSchema } from '../schemas/control.js';
import type {
  ActiveScenariosSchema,
  ClockStateSchema,
  HealthSchema,
  InspectCampaignSchema,
  scenarioAnswerSchemas,
} from '../schemas/responses.js';
import type { createScenarioSchema } from '../schemas/scenario-file.js';
import type { z } from 'zod';

export interface ClientOptions {
  /** Base URL of a running emulator, e.g. http://127.0.0.1:4010 (a trailing slash is fine). */
  url: string;
  /** Sent as `authorization: Bearer <token>` when the emulator runs with --admin-token. */
  adminToken?: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** A campaign as /__inspect answers it: the record, its template's name and channels, its last CSV upload. */
export type InspectCampaign = z.infer<typeof InspectCampaignSchema>;

/** Instants may be given as ISO strings or Date objects. */
export type Instant = string | Date;

export interface PageQuery {
  /** @default 100, max 10,000 */
  limit?: number;
  offset?: number;
  /** `desc`: newest first, `offset` counted from the newest end. @default "asc" */
  order?: 'asc' | 'desc';
}

/** A filter as the client takes it: instants as ISO text or Date, not epoch ms. */
type WithInstants<F> = Omit<F, 'since' | 'until'> & { since?: Instant; until?: Instant };

// Each query is its kind's filter schema (src/schemas/control.ts), through types only.
export type DeliveryQuery = PageQuery & WithInstants<z.output<typeof DeliveryFilterSchema>>;

export type NotificationQuery = PageQuery & WithInstants<z.output<typeof NotificationFilterSchema>>;

export type RequestQuery = PageQuery & WithInstants<JournalFilter>;

export type CampaignQuery = PageQuery & CampaignFilter;

export type RecipientQuery = PageQuery & RecipientFilter;

export interface WaitOptions {
  /** How many matching deliveries to wait for. */
  count: number;
  /** @default 5000 (the server caps it at 300,000) */
  timeoutMs?: number;
}

/** GET /__health: liveness, counters, retention and the clock. */
export type Health = z.infer<typeof HealthSchema>;

/** GET and POST /__clock. */
export type ClockState = z.infer<typeof ClockStateSchema>;

/** The /__scenarios answers' schemas, around the scenario file format's rule (as src/openapi builds them). */
type ScenarioAnswers = ReturnType<
  typeof scenarioAnswerSchemas<ReturnType<typeof createScenarioSchema>['shape']['rules']['element']>
>;

/** A loaded scenario as GET /__scenarios lists it (rules explained, with their remaining `times`). */
export type ScenarioInfo = z.infer<ScenarioAnswers['view']>;

/** GET /__scenarios: the active set, every scenario, the header layer's counters and refused files. */
export type ScenarioList = z.infer<ScenarioAnswers['list']>;

/** POST /__scenarios/reset: the active set and every scenario with its counters restored. */
export type ScenarioCounters = z.infer<ScenarioAnswers['counters']>;

/** GET /__scenarios/{name}: the scenario with the header activation's rule counters. */
export type ScenarioDetail = z.infer<ScenarioAnswers['detail']>;

/** GET /__inspect/delivery-stats: its query schema's type (schemas/control-inspector.ts), instants as text or Date. */
export type DeliveryStatsQuery = WithInstants<DeliveryStatsQueryRead>;

export type { AppList, DeliveryStats } from '../schemas/control-inspector.js';
export type { AppTemplates, TemplateSample } from '../domain/template-view.js';

export interface EmulatorClient {
  readonly url: string;
  health(): Promise<Health>;
  deliveries(query?: DeliveryQuery): Promise<ListResult<Delivery>>;
  /** Long-polls until `count` deliveries match; rejects with how many matched on timeout. */
  waitForDeliveries(query: DeliveryQuery, options: WaitOptions): Promise<ListResult<Delivery>>;
  notifications(query?: NotificationQuery): Promise<ListResult<NotificationRecord>>;
  requests(query?: RequestQuery): Promise<ListResult<JournalEntry>>;
  /** GET /__inspect/requests/{id}: one journal entry (rejects with 404 when unknown). */
  request(id: string): Promise<JournalEntry>;
  campaigns(query?: CampaignQuery): Promise<ListResult<InspectCampaign>>;
  /** GET /__inspect/deliveries/{id} */
  delivery(id: string): Promise<Delivery>;
  /** GET /__inspect/delivery-stats: counts per time bucket and status (default: per minute, last hour). */
  deliveryStats(query?: DeliveryStatsQuery): Promise<DeliveryStats>;
  /** GET /__apps */
  apps(): Promise<AppList>;
  /** GET /__apps/{appId}/templates: the templates an app sees, with sample values (`seed` picks another set). */
  appTemplates(appId: string, options?: { seed?: number }): Promise<AppTemplates>;
  campaign(id: string): Promise<InspectCampaign>;
  campaignRecipients(id: string, query?: RecipientQuery): Promise<ListResult<Recipient>>;
  /** DELETE /__inspect: clears deliveries, notifications, campaigns and the journal (of one app when given). */
  reset(options?: { appId?: string }): Promise<void>;
  /**
   * POST /__reset: back to the state at start: records, runtime templates and channels,
   * open-mode apps, runtime scenarios and counters, the clock (one app's data when given).
   */
  resetAll(options?: { appId?: string }): Promise<void>;
  scenarios: {
    list(): Promise<ScenarioList>;
    get(name: string): Promise<ScenarioDetail>;
    /** PUT /__scenarios/active: replaces the globally active set. */
    activate(names: string[]): Promise<{ active: string[] }>;
    /** POST /__scenarios: loads (or replaces) one scenario in the file format of docs/reference.md#scenarios. */
    load(scenario: unknown): Promise<{ replaced: boolean; scenario: ScenarioInfo }>;
    /** POST /__scenarios/reset: restores every rule's `times`/`after` counters. */
    reset(): Promise<ScenarioCounters>;
    remove(name: string): Promise<{ deleted: string; active: string[] }>;
  };
  clock: ClockControl;
  /**
   * The same control plane scoped to one app (docs/reference.md#apps-as-namespaces): its own
   * clock, its own scenario set and counters, its records, and a reset of it alone.
   */
  forApp(appId: string): AppClient;
}

/** POST/GET /__clock, of the shared clock or (AppClient) of one app's. */
export interface ClockControl {
  get(): Promise<ClockState>;
  advance(ms: number): Promise<ClockState>;
  set(instant: Instant): Promise<ClockState>;
  real(): Promise<ClockState>;
}

/** A query of the client scoped to an app: every field but `appId`. */
type AppQuery<Q> = Omit<Q, 'appId'>;

/** createClient(…).forApp(appId): everything here reads or changes that app only. */
export interface AppClient {
  readonly appId: string;
  /** The app's clock: the shared one until the first move gives it its own (`?appId=` on /__clock). */
  clock: ClockControl & {
    /** DELETE /__clock?appId=: back to the shared clock. */
    useShared(): Promise<ClockState>;
  };
  scenarios: {
    /** The set that applies to the app, its counters and `scope` ("app" or "global"). */
    list(): Promise<ScenarioList>;
    get(name: string): Promise<ScenarioDetail>;
    /** PUT /__scenarios/active?appId=: the app's own set, which alone then applies to it. */
    activate(names: string[]): Promise<ActiveScenarios>;
    /** DELETE /__scenarios/active?appId=: back to the global set. */
    useGlobal(): Promise<ActiveScenarios>;
    /** POST /__scenarios/reset?appId=: the app's counters (own set and header) restored. */
    reset(): Promise<ScenarioCounters>;
  };
  /** POST /__reset?appId=: the app's records, runtime resources, own clock, own set and counters. */
  reset(): Promise<void>;
  /** DELETE /__inspect?appId=: the app's recorded traffic only. */
  clear(): Promise<void>;
  deliveries(query?: AppQuery<DeliveryQuery>): Promise<ListResult<Delivery>>;
  /** Long-polls until `count` of the app's deliveries match; rejects with how many matched on timeout. */
  waitFor(query: AppQuery<DeliveryQuery>, options: WaitOptions): Promise<ListResult<Delivery>>;
  notifications(query?: AppQuery<NotificationQuery>): Promise<ListResult<NotificationRecord>>;
  requests(query?: AppQuery<RequestQuery>): Promise<ListResult<JournalEntry>>;
  campaigns(query?: AppQuery<CampaignQuery>): Promise<ListResult<InspectCampaign>>;
  /** GET /__inspect/campaigns/{id}?appId=: rejects with 404 when the campaign is another app's. */
  campaign(id: string): Promise<InspectCampaign>;
  campaignRecipients(id: string, query?: RecipientQuery): Promise<ListResult<Recipient>>;
  /** GET /__inspect/requests/{id}?appId=: rejects with 404 when the entry is another app's. */
  request(id: string): Promise<JournalEntry>;
}

/**
 * POST /api/analytics/rollup, for a test that calls the emulated API itself (the API needs the
 * app's credentials, which this client never holds): the body and the answer
 * (docs/api.md#analytics-rollup). Its journal entry is read with `requests({ path })`.
 */
export type { RollupBody } from '../schemas/analytics.js';
export type { RollupResult } from '../schemas/responses.js';

/** PUT and DELETE /__scenarios/active. */
export type ActiveScenarios = z.infer<typeof ActiveScenariosSchema>;
