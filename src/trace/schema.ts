/**
 * The trace file: one JSON document holding a run (docs/reference.md#traces). The header
 * (everything but the record lists) and each record list have their schema here; the reader
 * checks the header first, so a file of another format or version is named as such before
 * any record is read.
 */
import { z } from 'zod';
import { instantProblem } from '../domain/instants.js';
import { ScenarioSchema } from '../scenario-engine/load-scenarios.js';
import { RECORD_LISTS } from '../schemas/record-lists.js';

export const TRACE_FORMAT = 'notification-emulator-trace';
export const TRACE_VERSION = 1;

/**
 * An instant as toISOString writes it (a year past 9999 as +275760): a clock set from it must
 * hold it, so a bad one is refused with the file, not met half-way through the import.
 */
const InstantSchema = z
  .string()
  .refine(
    (s) => /^([+-]\d{6}|\d{4})-\d{2}-\d{2}T/.test(s) && instantProblem(Date.parse(s)) === null,
    'must be an ISO 8601 instant, e.g. 2030-01-01T00:00:00.000Z',
  );

const ClockStateSchema = z.object({ now: InstantSchema, mode: z.enum(['real', 'manual']) });

/** One rule's counts in one layer: the global set, an app's own set (`app:A`), an app's header (`header:A`). */
const RuleCounterSchema = z.object({
  layer: z.string().regex(/^(global|app:.+|header:.*)$/, 'must be global, app:<appId> or header:<appId>'),
  scenario: z.string(),
  rule: z.number().int().min(1),
  matched: z.number().int().min(0),
  applied: z.number().int().min(0),
});

/** A random source's place in its sequence (32-bit state). */
const DrawStateSchema = z.number().int().min(0).max(0xffffffff);

/** What the header holds besides the record lists. */
export const TraceHeaderSchema = z.object({
  format: z.literal(TRACE_FORMAT),
  version: z.literal(TRACE_VERSION),
  emulatorVersion: z.string(),
  exportedAt: InstantSchema,
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
  /** The shared clock, and the own clock of every app that has one. */
  clocks: z.object({ shared: ClockStateSchema, apps: z.record(z.string(), ClockStateSchema) }),
  ids: z.object({ machine: z.string().regex(/^[0-9a-f]{10}$/), counter: z.number().int().min(0).max(0xffffff) }),
  apps: z.array(z.object({ appId: z.string().min(1), apiKey: z.string(), region: z.string().optional() })),
  scenarios: z.object({
    loaded: z.array(z.object({ source: z.string(), scenario: ScenarioSchema })),
    /** The global active set, and the own set of every app that has one. */
    active: z.object({ global: z.array(z.string()), apps: z.record(z.string(), z.array(z.string())) }),
    counters: z.array(RuleCounterSchema),
    /** The scenarios a request header has named, per app ('' for requests of no app). */
    headerActivated: z.record(z.string(), z.array(z.string())),
    /** Where the random sources of `probability` rules stand: requests of no app's (null: unknown), each app's. */
    draws: z.object({ shared: DrawStateSchema.nullable(), apps: z.record(z.string(), DrawStateSchema) }),
  }),
  droppedDeliveries: z.number().int().min(0),
});
export type TraceHeader = z.infer<typeof TraceHeaderSchema>;

/** Each record list of the trace, in the order the file holds them, with its element's schema. */
export const TRACE_LISTS = RECORD_LISTS;

/** The whole document, as the OpenAPI document describes it. */
export const TraceDocumentSchema = TraceHeaderSchema.extend({
  templates: z.array(TRACE_LISTS.templates),
  channels: z.array(TRACE_LISTS.channels),
  templateChannels: z.array(TRACE_LISTS.templateChannels),
  campaigns: z.array(TRACE_LISTS.campaigns),
  recipients: z.array(TRACE_LISTS.recipients),
  campaignUploads: z.array(TRACE_LISTS.campaignUploads),
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
/**
 * What a list of a one-app export yields for a record of another app: nothing to write, but a
 * point where the writer may give the event loop back (a million records of other apps are
 * not passed over in one turn).
 */
export const PASSED_OVER = Symbol('passed over');
/** A trace as written: the lists as iterables, read while the document streams out. */
export type TraceSource = TraceHeader & {
  [K in TraceListName]: Iterable<z.input<(typeof TRACE_LISTS)[K]> | typeof PASSED_OVER>;
};
