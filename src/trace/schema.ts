/**
 * The trace file: one JSON document holding a run (docs/reference.md#traces). The header
 * (everything but the record lists) and each record list have their schema here; the reader
 * checks the header first, so a file of another format or version is named as such before
 * any record is read.
 */
import { z } from 'zod';
import { ScenarioSchema } from '../scenario-engine/load-scenarios.js';
import { AnalyticsEventSchema } from '../schemas/analytics.js';
import { ChannelSchema } from '../schemas/channels.js';
import {
  CampaignSchema,
  DeliverySchema,
  JournalEntrySchema,
  NotificationRecordSchema,
  RecipientSchema,
  TemplateSchema,
} from '../schemas/records.js';
import { TemplateChannelRecordSchema } from '../schemas/template-channels.js';

export const TRACE_FORMAT = 'notification-emulator-trace';
export const TRACE_VERSION = 1;

const ClockStateSchema = z.object({ now: z.string(), mode: z.enum(['real', 'manual']) });

const RuleCounterSchema = z.object({
  layer: z.enum(['global', 'header']),
  scenario: z.string(),
  rule: z.number().int().min(1),
  matched: z.number().int().min(0),
  applied: z.number().int().min(0),
});

/** What the header holds besides the record lists. */
export const TraceHeaderSchema = z.object({
  format: z.literal(TRACE_FORMAT),
  version: z.literal(TRACE_VERSION),
  emulatorVersion: z.string(),
  exportedAt: z.string(),
  /** null: every app; else the one app exported. */
  appId: z.string().nullable(),
  /** The start options that shape what was recorded (never an API key nor the admin token). */
  options: z.object({
    seed: z.number().nullable(),
    authMode: z.enum(['open', 'strict']),
    adminTokenRequired: z.boolean(),
    activeScenarios: z.array(z.string()),
    limits: z.record(z.string(), z.number()),
  }),
  clocks: z.object({ shared: ClockStateSchema, apps: z.record(z.string(), ClockStateSchema) }),
  ids: z.object({ machine: z.string().regex(/^[0-9a-f]{10}$/), counter: z.number().int().min(0).max(0xffffff) }),
  apps: z.array(z.object({ appId: z.string().min(1), apiKey: z.string(), region: z.string().optional() })),
  scenarios: z.object({
    loaded: z.array(z.object({ source: z.string(), scenario: ScenarioSchema })),
    active: z.object({ global: z.array(z.string()), apps: z.record(z.string(), z.array(z.string())) }),
    counters: z.object({
      rules: z.array(RuleCounterSchema),
      headerActivated: z.array(z.string()),
      apps: z.record(z.string(), z.unknown()),
    }),
  }),
  droppedDeliveries: z.number().int().min(0),
});
export type TraceHeader = z.infer<typeof TraceHeaderSchema>;

const CampaignWithRecipientsSchema = CampaignSchema.extend({ recipients: z.array(RecipientSchema) });

/** Each record list of the trace, in the order the file holds them, with its element's schema. */
export const TRACE_LISTS = {
  templates: TemplateSchema,
  channels: ChannelSchema,
  templateChannels: TemplateChannelRecordSchema,
  campaigns: CampaignWithRecipientsSchema,
  notifications: NotificationRecordSchema,
  deliveries: DeliverySchema,
  journal: JournalEntrySchema,
  analyticsEvents: AnalyticsEventSchema,
} as const;

/** The whole document, as the OpenAPI document describes it. */
export const TraceDocumentSchema = TraceHeaderSchema.extend({
  templates: z.array(TRACE_LISTS.templates),
  channels: z.array(TRACE_LISTS.channels),
  templateChannels: z.array(TRACE_LISTS.templateChannels),
  campaigns: z.array(TRACE_LISTS.campaigns),
  notifications: z.array(TRACE_LISTS.notifications),
  deliveries: z.array(TRACE_LISTS.deliveries),
  journal: z.array(TRACE_LISTS.journal),
  analyticsEvents: z.array(TRACE_LISTS.analyticsEvents),
});

export type TraceListName = keyof typeof TRACE_LISTS;
export const TRACE_LIST_NAMES = Object.keys(TRACE_LISTS) as TraceListName[];

export type TraceLists = { [K in TraceListName]: z.infer<(typeof TRACE_LISTS)[K]>[] };
/** A trace as read: its header and every record list, checked. */
export type Trace = TraceHeader & TraceLists;
/** A trace as written: the lists as iterables, read while the document streams out. */
export type TraceSource = TraceHeader & { [K in TraceListName]: Iterable<z.infer<(typeof TRACE_LISTS)[K]>> };
