/**
 * OpenAPI operations of the control plane (/__…): inspection, waiting, scenarios, the
 * clock, health and this document. No appid/apikey; the admin bearer token when one is set.
 */
import { z } from 'zod';
import { ScenarioSchema } from '../scenario-engine/load-scenarios.js';
import {
  AppScopeQuerySchema,
  ClockBodySchema,
  InspectCampaignsQuerySchema,
  InspectRecipientsQuerySchema,
  StreamQuerySchema,
} from '../schemas/control.js';
import {
  ActiveScenariosBodySchema,
  ClearQuerySchema,
  DeliveryQuerySchema,
  JournalQuerySchema,
  NotificationQuerySchema,
} from '../schemas/control.js';
import { DeliverySchema, JournalEntrySchema, NotificationRecordSchema } from '../schemas/records.js';
import {
  ActiveScenariosSchema,
  CampaignPageSchema,
  InspectCampaignSchema,
  ClearResultSchema,
  ClockStateSchema,
  ResetResultSchema,
  DeliveryPageSchema,
  HealthSchema,
  JournalPageSchema,
  NotificationPageSchema,
  RecipientPageSchema,
  scenarioAnswerSchemas,
  TemplateViewSchema,
} from '../schemas/responses.js';
import {
  AppListSchema,
  AppTemplatesQuerySchema,
  DeliveryStatsQuerySchema,
  DeliveryStatsSchema,
} from '../schemas/control-inspector.js';
import { ChannelSchema } from '../schemas/channels.js';
import { VariableSchemaEntrySchema } from '../schemas/records.js';
import type { Resource } from './operation.js';

const scenarioAnswers = scenarioAnswerSchemas(ScenarioSchema.shape.rules.element);
export const ScenarioViewSchema = scenarioAnswers.view;
export const ScenarioListSchema = scenarioAnswers.list;
const ScenarioCountersSchema = scenarioAnswers.counters;
export const ScenarioDetailSchema = scenarioAnswers.detail;
export const AppTemplatesSchema = z.object({
  appId: z.string(),
  authMode: z.enum(['open', 'strict']),
  channels: z.array(ChannelSchema),
  items: z.array(
    TemplateViewSchema.extend({
      variableList: z.array(VariableSchemaEntrySchema),
      sample: z.object({ variables: z.record(z.string(), z.unknown()), rendered: z.record(z.string(), z.unknown()) }),
    }),
  ),
});
const ScenarioDeletedSchema = z.object({ deleted: z.string(), active: z.array(z.string()) });

/** The by-id inspect routes' `?appId=`. */
const BY_ID_APP =
  'With `appId`, only a record of that app is found (another app’s answers 404): behind a load balancer that ' +
  'hashes on appId, the request then reaches the app’s replica.';
const CampaignIdParams = z.object({ id: z.string().describe('The campaign id (any app).') });

/** The document itself, loosely: its own shape is OpenAPI 3.1's. */
const OpenApiDocumentSchema = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) });

export const controlResource: Resource = {
  tag: {
    name: 'Control plane',
    description:
      'The emulator’s own endpoints under /__: what was delivered, waiting for it, fault scenarios, the clock. ' +
      'They need no appid/apikey; when the emulator runs with an admin token, they need ' +
      '`authorization: Bearer <token>`.',
  },
  control: true,
  components: {
    Health: HealthSchema,
    ClockState: ClockStateSchema,
    Delivery: DeliverySchema,
    DeliveryPage: DeliveryPageSchema,
    NotificationRecord: NotificationRecordSchema,
    NotificationPage: NotificationPageSchema,
    JournalEntry: JournalEntrySchema,
    JournalPage: JournalPageSchema,
    InspectCampaign: InspectCampaignSchema,
    CampaignPage: CampaignPageSchema,
    RecipientPage: RecipientPageSchema,
    ClearResult: ClearResultSchema,
    ScenarioView: ScenarioViewSchema,
    ScenarioList: ScenarioListSchema,
    ScenarioDetail: ScenarioDetailSchema,
    ResetResult: ResetResultSchema,
    AppList: AppListSchema,
    AppTemplates: AppTemplatesSchema,
    DeliveryStats: DeliveryStatsSchema,
    ActiveScenarios: ActiveScenariosSchema,
  },
  operations: [
    {
      method: 'get',
      path: '/__health',
      operationId: 'getHealth',
      summary: 'Liveness and a summary of what the emulator holds',
      responses: { 200: { description: 'Up.', schema: HealthSchema } },
      errors: {},
    },
    {
      method: 'get',
      path: '/__openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      responses: { 200: { description: 'The OpenAPI 3.1 document.', schema: OpenApiDocumentSchema } },
      errors: {},
    },
    {
      method: 'get',
      path: '/__clock',
      operationId: 'getClock',
      summary: 'The emulator clock, or one app’s',
      description:
        'With `appId`: the clock that app reads (its own, or the shared one it follows) and `scope` saying which.',
      query: AppScopeQuerySchema,
      responses: { 200: { description: 'Now, and whether the clock follows real time.', schema: ClockStateSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'post',
      path: '/__clock',
      operationId: 'setClock',
      summary: 'Move the clock, jump to an instant, or choose the mode',
      description:
        'Exactly one of `advanceMs`, `now` or `mode`. Scheduled campaigns that come due start at once. With ' +
        '`appId`: that app’s own clock (made at the shared clock’s instant on first use) moves, and only its ' +
        'scheduled campaigns start; every other app keeps its time.',
      query: AppScopeQuerySchema,
      body: { schema: ClockBodySchema, name: 'ClockRequest' },
      responses: { 200: { description: 'The clock after the change.', schema: ClockStateSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'delete',
      path: '/__clock',
      operationId: 'releaseAppClock',
      summary: 'Return an app to the shared clock',
      description: '`appId` is required. The app’s scheduled campaigns move with it to the shared clock.',
      query: AppScopeQuerySchema,
      responses: { 200: { description: 'The app’s clock, now the shared one.', schema: ClockStateSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/__inspect/deliveries',
      operationId: 'inspectDeliveries',
      summary: 'Deliveries (one per user per send), filtered; optionally wait for a count',
      description: 'With `waitFor=n`, answers as soon as n deliveries match, or with 408 after `timeoutMs`.',
      query: DeliveryQuerySchema,
      responses: {
        200: { description: 'One page of matching deliveries.', schema: DeliveryPageSchema },
        408: {
          description: '`waitFor` not reached within `timeoutMs`: what matched so far.',
          schema: DeliveryPageSchema,
        },
      },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/__inspect/notifications',
      operationId: 'inspectNotifications',
      summary: 'Notifications (one per send call), filtered',
      query: NotificationQuerySchema,
      responses: { 200: { description: 'One page of matching notifications.', schema: NotificationPageSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/__inspect/requests',
      operationId: 'inspectRequests',
      summary: 'The request journal: every API request, refused ones too',
      query: JournalQuerySchema,
      responses: { 200: { description: 'One page of matching journal entries.', schema: JournalPageSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'delete',
      path: '/__inspect',
      operationId: 'clearRecords',
      summary: 'Clear the records (deliveries, notifications, campaigns, journal), of all apps or one',
      query: ClearQuerySchema,
      responses: { 200: { description: 'Cleared.', schema: ClearResultSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/__inspect/campaigns',
      operationId: 'inspectCampaigns',
      summary: "Every app's campaigns, filtered",
      query: InspectCampaignsQuerySchema,
      responses: { 200: { description: 'One page of campaigns.', schema: CampaignPageSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/__inspect/campaigns/{id}',
      operationId: 'inspectCampaign',
      summary: 'One campaign, whatever its app (or only of `appId`), with its last CSV upload',
      description: BY_ID_APP,
      pathParams: CampaignIdParams,
      query: AppScopeQuerySchema,
      responses: {
        200: {
          description: 'The campaign, and `lastUpload`: what its last accepted CSV upload added and skipped, and why.',
          schema: InspectCampaignSchema,
        },
      },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/__inspect/campaigns/{id}/recipients',
      operationId: 'inspectCampaignRecipients',
      summary: "A campaign's recipients with their delivery status",
      description: BY_ID_APP,
      pathParams: CampaignIdParams,
      query: InspectRecipientsQuerySchema,
      responses: { 200: { description: 'One page of recipients.', schema: RecipientPageSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/__inspect/stream',
      operationId: 'streamEvents',
      summary: 'Server-Sent Events: deliveries, campaigns, notifications and requests as they happen',
      description:
        'Each event is named after its type (`delivery`, `campaign`, `notification`, `request`) and carries the ' +
        'record as JSON in `data`; a `: heartbeat` comment keeps the connection open. `appId`, `campaignId` and ' +
        '`userId` apply to every type; the delivery filters (`templateKey` … `tag`) keep only matching ' +
        'deliveries and the request filters (`method` … `bodyContains`) only matching requests, tested as ' +
        '`/__inspect/deliveries` and `/__inspect/requests` test them; `status` is a delivery status (deliveries ' +
        'only) or an HTTP status (requests only); `since`/`until` keep deliveries and requests only.',
      query: StreamQuerySchema,
      responses: { 200: { description: 'An endless event stream.', contentType: 'text/event-stream' } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/__scenarios',
      operationId: 'listScenarios',
      summary: 'Loaded scenarios, each rule explained with its counters, and the active set',
      description:
        'With `appId`: the set that applies to that app (its own, or the global one: `scope`), the counters of ' +
        'its own set and of its `x-emulator-scenario` header. Without: the global set and counters, and the ' +
        'header counters summed over every app.',
      query: AppScopeQuerySchema,
      responses: { 200: { description: 'The scenarios.', schema: ScenarioListSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'post',
      path: '/__scenarios',
      operationId: 'loadScenario',
      summary: 'Load a scenario, or replace the one with the same name',
      body: { schema: ScenarioSchema, name: 'Scenario' },
      responses: {
        200: {
          description: 'Replaced.',
          schema: z.object({ replaced: z.literal(true), scenario: ScenarioViewSchema }),
        },
        201: { description: 'Loaded.', schema: z.object({ replaced: z.literal(false), scenario: ScenarioViewSchema }) },
      },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'post',
      path: '/__scenarios/reset',
      operationId: 'resetScenarioCounters',
      summary: 'Reset every rule counter, or one app’s',
      description: 'With `appId`: only the counters of that app’s own set and header, and its random draws.',
      query: AppScopeQuerySchema,
      responses: { 200: { description: 'The scenarios, counters at zero.', schema: ScenarioCountersSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'put',
      path: '/__scenarios/active',
      operationId: 'setActiveScenarios',
      summary: 'Set the active scenarios (the whole set), globally or for one app',
      description:
        'With `appId`: the app’s own set, which from then on alone applies to its requests and deliveries (the ' +
        'global set no longer does).',
      query: AppScopeQuerySchema,
      body: { schema: ActiveScenariosBodySchema, name: 'ActiveScenariosRequest' },
      responses: { 200: { description: 'The active set.', schema: ActiveScenariosSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'delete',
      path: '/__scenarios/active',
      operationId: 'useGlobalScenarios',
      summary: 'Return an app to the global active set',
      description: '`appId` is required (without it, and with a scenario named "active" loaded, that one is unloaded).',
      query: AppScopeQuerySchema,
      responses: {
        200: {
          description: 'The set that now applies to the app (or, without `appId`, the scenario "active" unloaded).',
          schema: z.union([ActiveScenariosSchema, ScenarioDeletedSchema]),
        },
      },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'delete',
      path: '/__scenarios/{name}',
      operationId: 'deleteScenario',
      summary: 'Unload a scenario',
      pathParams: z.object({ name: z.string().describe('The scenario name.') }),
      responses: { 200: { description: 'Unloaded.', schema: ScenarioDeletedSchema } },
      errors: { 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'post',
      path: '/__reset',
      operationId: 'reset',
      summary: 'Back to the start state, of every app or one',
      description:
        'Unlike DELETE /__inspect (recorded traffic only), this also drops runtime templates, channels and ' +
        'template-channel rows, open-mode apps, runtime-loaded scenarios and counters, and restores the clock. ' +
        'With `appId`: that app only, its own clock and active set included (back to the shared ones).',
      query: ClearQuerySchema,
      responses: { 200: { description: 'Reset.', schema: ResetResultSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/__inspect/requests/{id}',
      operationId: 'inspectRequest',
      summary: 'One journal entry',
      description: BY_ID_APP,
      pathParams: z.object({ id: z.string().describe('The journal entry id.') }),
      query: AppScopeQuerySchema,
      responses: { 200: { description: 'The entry.', schema: JournalEntrySchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/__inspect/deliveries/{id}',
      operationId: 'inspectDelivery',
      summary: 'One delivery',
      pathParams: z.object({ id: z.string().describe('The delivery id.') }),
      responses: { 200: { description: 'The delivery.', schema: DeliverySchema } },
      errors: { 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/__inspect/delivery-stats',
      operationId: 'inspectDeliveryStats',
      summary: 'Deliveries sent and failed per time bucket (default: per minute over the last hour)',
      query: DeliveryStatsQuerySchema,
      responses: { 200: { description: 'Every bucket of the range, empty ones as 0.', schema: DeliveryStatsSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/__apps',
      operationId: 'listApps',
      summary: 'The apps this emulator knows (never their keys)',
      responses: { 200: { description: 'The apps.', schema: AppListSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/__apps/{appId}/templates',
      operationId: 'listAppTemplates',
      summary: "An app's templates with its channels and a preview rendered from sample values",
      pathParams: z.object({ appId: z.string().describe('The app id.') }),
      query: AppTemplatesQuerySchema,
      responses: { 200: { description: 'The templates.', schema: AppTemplatesSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/__scenarios/{name}',
      operationId: 'getScenario',
      summary: 'One scenario, with the counters of both layers',
      description: 'With `appId`: the counters of that app (its own set, or the global one, and its header).',
      pathParams: z.object({ name: z.string().describe('The scenario name.') }),
      query: AppScopeQuerySchema,
      responses: { 200: { description: 'The scenario.', schema: ScenarioDetailSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
  ],
};
