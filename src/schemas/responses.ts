/**
 * Shapes of what the routes answer, beyond the stored records (records.ts, resources.ts):
 * the error envelope, the enriched views, results of actions and the control plane's
 * answers. The OpenAPI document is generated from these (src/openapi/), and the domain's
 * own types are checked against them at compile time there.
 */
import { z } from 'zod';
import {
  CampaignSchema,
  CampaignUploadSchema,
  DeliverySchema,
  JournalEntrySchema,
  NotificationRecordSchema,
  RecipientSchema,
  TEMPLATE_STATUSES,
  VARIABLE_TYPES,
} from './records.js';
import { CHANNEL_TYPES } from './channels.js';

const JsonObject = z.record(z.string(), z.unknown());

/** The one error envelope; `codes` narrows `code` (every code of the table when all are passed). */
export const errorEnvelopeSchema = (codes: readonly [string, ...string[]]) =>
  z.object({
    error: z.object({
      code: z.enum(codes),
      /** Human-facing text. */
      message: z.string(),
      /** What exactly was wrong, naming the field, row or parameter. */
      devMessage: z.string(),
      /** Field path → problem, when the error is about fields. */
      details: z.record(z.string(), z.string()).optional(),
    }),
  });

// ---- templates ----

export const TemplateViewSchema = z.object({
  id: z.string(),
  appId: z.string(),
  name: z.string(),
  templateId: z.string(),
  key: z.string(),
  status: z.enum(TEMPLATE_STATUSES),
  category: z.string().nullable(),
  channelIds: z.array(z.string()),
  channels: z.array(z.string()),
  variableSchema: z.record(
    z.string(),
    z.object({ type: z.enum(VARIABLE_TYPES), name: z.string(), required: z.boolean() }),
  ),
  config: JsonObject,
  availability: z.string().nullable(),
  sequence: z.number().nullable(),
  content: JsonObject,
  source: z.enum(['fixture', 'runtime']),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const SuccessSchema = z.object({ success: z.literal(true) });

// ---- channels ----

export const ChannelAvailabilitySchema = z.object({
  type: z.enum(CHANNEL_TYPES),
  /** −1: unlimited; 0: needs a plan provisioned by sales. */
  limit: z.number(),
  used: z.number(),
});

// ---- campaigns ----

export const CampaignViewSchema = CampaignSchema.extend({
  templateName: z.string().nullable(),
  channelTypes: z.array(z.string()),
});

/** /__inspect's campaign: the view and the last accepted CSV upload (null before one). */
export const InspectCampaignSchema = CampaignViewSchema.extend({
  templateKey: z.string().nullable().describe("The template's key (null when the template is gone)."),
  lastUpload: CampaignUploadSchema.nullable().describe(
    "The campaign's last accepted CSV upload: what it added, what it skipped and why. null before one.",
  ),
});

export const SendCampaignResultSchema = z.object({
  id: z.string(),
  status: CampaignSchema.shape.status,
  scheduledAt: z.string().nullable(),
  updatedAt: z.string(),
});

export const AddRecipientsResultSchema = z.object({ added: z.number(), total: z.number() });

export const CsvRowErrorSchema = z.object({ row: z.number(), reason: z.string() });

export const UploadResultSchema = z.object({
  recipientsAdded: z.number(),
  uploaded: z.number(),
  total: z.number(),
  campaignId: z.string(),
  skipped: z.number(),
  errors: z.array(CsvRowErrorSchema),
});

// ---- analytics ----

const CountsSchema = z.object({ delivered: z.number(), viewed: z.number(), clicked: z.number() });

export const ChannelMetricsSchema = CountsSchema.extend({
  channelType: z.string(),
  timeSeries: z.array(CountsSchema.extend({ date: z.string() })),
});

export const UserInsightsSchema = z.object({
  userId: z.string(),
  summary: CountsSchema,
  notifications: z.array(
    z.object({
      notificationId: z.string(),
      templateName: z.string().nullable(),
      channelType: z.string(),
      delivered: z.boolean(),
      viewed: z.boolean(),
      clicked: z.boolean(),
      deliveredAt: z.string().nullable(),
      viewedAt: z.string().nullable(),
      clickedAt: z.string().nullable(),
    }),
  ),
});

export const RecordEventResultSchema = z.object({ success: z.literal(true), eventId: z.string() });

export const RollupResultSchema = z.object({
  success: z.literal(true),
  from: z.string().describe('The start of the range, as a UTC ISO 8601 instant.'),
  to: z.string().describe('The end of the range, as a UTC ISO 8601 instant.'),
  eventsProcessed: z
    .number()
    .int()
    .describe("How many of the app's recorded analytics events fall in the range (both ends included)."),
});
export type RollupResult = z.infer<typeof RollupResultSchema>;

// ---- control plane ----

const ClockModeSchema = z.enum(['real', 'manual']);
export const ClockStateSchema = z.object({
  now: z.string(),
  mode: ClockModeSchema,
  /** With `?appId=`: the app asked about. */
  appId: z.string().optional(),
  /** With `?appId=`: whether the app runs on a clock of its own ("app") or follows the shared one. */
  scope: z.enum(['app', 'shared']).optional(),
});

const RetentionCountSchema = z.object({ stored: z.number(), max: z.number(), dropped: z.number() });

/** Where the running state came from when it was imported from a trace (docs/reference.md#traces). */
export const TraceOriginSchema = z.object({
  /** The file's name (--import, `view`, or `fileName` on POST /__import), or null. */
  fileName: z.string().nullable(),
  exportedAt: z.string(),
  emulatorVersion: z.string(),
  /** The app imported alone, or null for the whole state. */
  appId: z.string().nullable(),
});

/** What the proxy mode forwarded since the start (GET /__health). */
export const UpstreamStatsSchema = z.object({
  /** The live service's base URL, or its per-app form (`https://{appId}.api-eu.…`) with `--upstream-region`. */
  target: z.string(),
  timeoutMs: z.number(),
  /** Calls forwarded (those a scenario fault answered are not). */
  forwarded: z.number(),
  /** Forwarded calls the live service gave no answer to (refused connection, timeout). */
  failed: z.number(),
  /** Live answers with at least one violation of the OpenAPI document. */
  answersWithViolations: z.number(),
  /** Violations in all of them together. */
  violations: z.number(),
});
export type UpstreamStats = z.infer<typeof UpstreamStatsSchema>;

export const HealthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptimeMs: z.number(),
  auth: z.enum(['open', 'strict']),
  templates: z.number(),
  apps: z.number(),
  activeScenarios: z.array(z.string()),
  deliveries: z.number(),
  droppedDeliveries: z.number(),
  maxDeliveries: z.number(),
  /** Journal entries held, and the cap (oldest dropped beyond it). */
  journal: z.number(),
  maxJournal: z.number(),
  /** Every kind of record: how many are held, the cap, and how many the cap has dropped. */
  retention: z.object({
    deliveries: RetentionCountSchema,
    notifications: RetentionCountSchema,
    journal: RetentionCountSchema,
    campaigns: RetentionCountSchema,
    recipients: RetentionCountSchema,
    analyticsEvents: RetentionCountSchema,
    apps: RetentionCountSchema,
  }),
  clock: ClockStateSchema,
  /** The process's memory: resident set size, V8 heap in use and the heap's limit, in bytes. */
  memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number(), heapLimitBytes: z.number() }),
  /** The trace the state was imported from; null when it was not (or was reset since). */
  trace: TraceOriginSchema.nullable(),
  /** Proxy mode's counters since the start; null when not proxying (no `--upstream`). */
  upstream: UpstreamStatsSchema.nullable(),
});

const pageOf = <T extends z.ZodType>(item: T) => z.object({ total: z.number(), items: z.array(item) });
export const DeliveryPageSchema = pageOf(DeliverySchema);
export const NotificationPageSchema = pageOf(NotificationRecordSchema);
export const JournalPageSchema = pageOf(JournalEntrySchema);
export const CampaignPageSchema = pageOf(InspectCampaignSchema);
export const RecipientPageSchema = pageOf(RecipientSchema);

export const ClearResultSchema = z.object({ cleared: z.literal(true), appId: z.string().nullable() });
export const ResetResultSchema = z.object({ reset: z.literal(true), appId: z.string().nullable() });

/** Scenario views; `rule` is the rule schema of the scenario file format (it needs the error codes). */
export const scenarioViewSchema = <R extends z.ZodObject>(rule: R) =>
  z.object({
    name: z.string(),
    description: z.string().nullable(),
    /** "api" or the file it was loaded from. */
    source: z.string(),
    active: z.boolean(),
    rules: z.array(
      z.object({
        rule: z.number(),
        explanation: z.string(),
        match: rule.shape.match as z.ZodType<z.output<R>['match']>,
        fault: rule.shape.fault as z.ZodType<z.output<R>['fault']>,
        times: z.number().nullable(),
        after: z.number(),
        probability: z.number().nullable(),
        matched: z.number(),
        applied: z.number(),
        /** Applications left under global activation; null when `times` is not set. */
        remaining: z.number().nullable(),
      }),
    ),
  });

/** What the /__scenarios endpoints answer, built around the scenario file format's rule schema. */
/** With `?appId=`: the app, and whether its own active set applies ("app") or the global one. */
const AppActivationFields = {
  appId: z.string().optional(),
  scope: z.enum(['app', 'global']).optional(),
};

export function scenarioAnswerSchemas<R extends z.ZodObject>(rule: R) {
  const view = scenarioViewSchema(rule);
  return {
    view,
    list: z.object({
      active: z.array(z.string()),
      ...AppActivationFields,
      scenarios: z.array(view),
      /** The views with the counters of the `x-emulator-scenario` header layer, one per scenario a header activated. */
      headerActivated: z.array(view),
      /** Scenario files refused at load or reload. */
      loadErrors: z.array(z.object({ file: z.string(), problems: z.array(z.string()) })),
    }),
    /** POST /__scenarios/reset answers the list without the header layer and load errors. */
    counters: z.object({ active: z.array(z.string()), ...AppActivationFields, scenarios: z.array(view) }),
    detail: view.extend({
      /** The rules with the counters of the header layer. */
      headerRules: view.shape.rules,
    }),
  };
}

export const ActiveScenariosSchema = z.object({ active: z.array(z.string()), ...AppActivationFields });
