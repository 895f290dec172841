/**
 * Queries and bodies of the control plane: /__inspect lists and waits, the campaign views,
 * the SSE stream's filters and the /__clock body.
 */
import { z } from 'zod';
import { CAMPAIGN_STATUSES, DeliveryStatusSchema, MODES, RECIPIENT_STATUSES } from './records.js';

const isoInstant = z
  .string()
  // Date.parse alone takes "5" or "March 7"; require the ISO date at least.
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}(T|$)/.test(s) && !Number.isNaN(Date.parse(s)),
    'must be an ISO 8601 instant, e.g. 2030-01-01T00:00:00Z',
  )
  .transform((s) => Date.parse(s));

/**
 * 10000 as "10,000". Not toLocaleString: its first call loads the ICU data, 11 ms of the
 * emulator's cold start, and these messages are built at startup.
 */
const withThousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** A whole number from a query string; `?limit=` (empty) counts as absent, not as 0. Errors name the range. */
const queryInt = (min: number, max: number, note = '') => {
  const range =
    max === Number.MAX_SAFE_INTEGER
      ? `must be a whole number, ${min} or more${note}`
      : `must be a whole number from ${withThousands(min)} to ${withThousands(max)}${note}`;
  return z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: range })
      .int({ error: range })
      .min(min, { error: range })
      .max(max, { error: range })
      .optional(),
  );
};

const ORDERS = ['asc', 'desc'] as const;

/** `order=desc`: newest first, `offset` counted from the newest end. */
export const PageQuerySchema = z.object({
  limit: queryInt(0, 10_000).transform((v) => v ?? 100),
  offset: queryInt(0, Number.MAX_SAFE_INTEGER).transform((v) => v ?? 0),
  order: z.enum(ORDERS, { error: 'must be asc or desc' }).default('asc'),
});

/** A query that takes no parameter at all (any one given is refused as unknown). */
export const NoQuerySchema = z.object({});

const MODES_ERROR = { error: `must be one of ${MODES.join(', ')}` };
const DELIVERY_STATUSES = DeliveryStatusSchema.options;
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export const WaitQuerySchema = z.object({
  waitFor: queryInt(1, 10_000_000),
  timeoutMs: queryInt(0, 300_000, ' (milliseconds; at most 5 minutes)').transform((v) => v ?? 5_000),
});

// ---- one filter per kind of record: the store port's filter type, the client's query types,
// the OpenAPI parameters, the stream's fields and the delivery index's keys all come from these.

export const DeliveryFilterSchema = z.object({
  appId: z.string().optional(),
  userId: z.string().optional(),
  templateKey: z.string().optional(),
  templateId: z.string().optional(),
  campaignId: z.string().optional(),
  notificationId: z.string().optional(),
  mode: z.enum(MODES, MODES_ERROR).optional(),
  channel: z.string().optional(),
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
  tag: z.string().optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
});

export const NotificationFilterSchema = z.object({
  appId: z.string().optional(),
  templateKey: z.string().optional(),
  notificationId: z.string().optional(),
  mode: z.enum(MODES, MODES_ERROR).optional(),
  tag: z.string().optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
});

export const JournalFilterSchema = z.object({
  appId: z.string().optional(),
  /** Any case: `post` finds POST requests. */
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(HTTP_METHODS, { error: `must be one of ${HTTP_METHODS.join(', ')}` }))
    .optional(),
  path: z.string().optional(),
  status: queryInt(100, 599),
  errorCode: z.string().optional(),
  scenario: z.string().optional(),
  /** Substring of the request or the response body, case-sensitive. */
  bodyContains: z.string().optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
});

export const CampaignFilterSchema = z.object({
  appId: z.string().optional(),
  status: z.enum(CAMPAIGN_STATUSES, { error: `must be one of ${CAMPAIGN_STATUSES.join(', ')}` }).optional(),
});

export const RecipientFilterSchema = z.object({
  status: z.enum(RECIPIENT_STATUSES, { error: `must be one of ${RECIPIENT_STATUSES.join(', ')}` }).optional(),
});

export const DeliveryQuerySchema = PageQuerySchema.extend(WaitQuerySchema.shape).extend(DeliveryFilterSchema.shape);
export const NotificationQuerySchema = PageQuerySchema.extend(NotificationFilterSchema.shape);
export const JournalQuerySchema = PageQuerySchema.extend(JournalFilterSchema.shape);

/** DELETE /__inspect and POST /__reset: everything, or one app's. */
export const ClearQuerySchema = z.object({ appId: z.string().min(1).optional() });

/** `?appId=` of the app-scoped control routes (clock, scenarios, by-id inspect). */
export const AppScopeQuerySchema = z.object({ appId: z.string().optional() });

/** PUT /__scenarios/active: the whole active set. */
export const ActiveScenariosBodySchema = z.strictObject({
  names: z.array(z.string().min(1), { error: 'must be an array of scenario names' }),
});

// ---- campaigns and the stream ----

export const InspectCampaignsQuerySchema = PageQuerySchema.extend(CampaignFilterSchema.shape);

/** `appId`: only that app's campaign (it is not a filter of the recipients). */
export const InspectRecipientsQuerySchema = PageQuerySchema.extend({ appId: z.string().optional() }).extend(
  RecipientFilterSchema.shape,
);

export const STREAM_EVENT_TYPES = ['delivery', 'campaign', 'request', 'notification'] as const;

/** The delivery filters only deliveries carry: given one, the stream sends only deliveries. */
export const DeliveryOnlyFilterSchema = DeliveryFilterSchema.omit({
  appId: true,
  campaignId: true,
  userId: true,
  status: true,
  since: true,
  until: true,
});

/** The journal filters only requests carry: given one, the stream sends only requests. */
export const RequestOnlyFilterSchema = JournalFilterSchema.omit({
  appId: true,
  status: true,
  since: true,
  until: true,
});

const EITHER_STATUS = `must be ${DELIVERY_STATUSES.join(' or ')} (deliveries) or an HTTP status, 100 to 599 (requests)`;

export const StreamQuerySchema = z.object({
  appId: z.string().min(1).optional(),
  campaignId: z.string().min(1).optional(),
  userId: z.string().min(1).optional(),
  /** Comma-separated subset of the event types; all of them when absent. */
  types: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.enum(STREAM_EVENT_TYPES, { error: `each type must be one of ${STREAM_EVENT_TYPES.join(', ')}` }))
        .min(1, 'name at least one type'),
    )
    .optional(),
  /** Interval of the `: heartbeat` comment. */
  heartbeatMs: z.coerce.number().int().min(50).max(600_000).default(15_000),
  ...DeliveryOnlyFilterSchema.shape,
  ...RequestOnlyFilterSchema.shape,
  /** A delivery status (only deliveries come) or an HTTP status, 100 to 599 (only requests come). */
  status: z
    .union(
      [
        z.enum(DELIVERY_STATUSES, { error: EITHER_STATUS }),
        z.coerce.number({ error: EITHER_STATUS }).int(EITHER_STATUS).min(100, EITHER_STATUS).max(599, EITHER_STATUS),
      ],
      { error: EITHER_STATUS },
    )
    .optional(),
  /** Deliveries and requests made at or after / before this instant only (other types leave). */
  since: isoInstant.optional(),
  until: isoInstant.optional(),
});
export type StreamQuery = z.infer<typeof StreamQuerySchema>;

// ---- clock ----

const isoDateTime = z.iso.datetime({
  offset: true,
  error: 'must be an ISO 8601 date-time with a time zone, e.g. 2030-01-01T09:00:00Z',
});

/** Exactly one of: move forward, jump to an instant, or choose the mode. */
export const ClockBodySchema = z
  .strictObject({
    advanceMs: z
      .number({ error: 'must be an integer ≥ 0' })
      .int('must be an integer ≥ 0')
      .min(0, 'must be an integer ≥ 0')
      .optional(),
    now: isoDateTime.optional(),
    mode: z.enum(['real', 'manual'], { error: 'must be "real" or "manual"' }).optional(),
  })
  .refine((b) => [b.advanceMs, b.now, b.mode].filter((v) => v !== undefined).length === 1, {
    message: 'send exactly one of {"advanceMs": n}, {"now": "<ISO>"} or {"mode": "real"|"manual"}',
  });

/** POST /__import: the whole state, or one app's; `fileName` names the trace in the inspector's overview. */
export const TraceImportQuerySchema = z.object({ appId: z.string().optional(), fileName: z.string().optional() });

/** GET /__inspect/requests.har: the journal's filters; every entry kept (10,000 by default) unless `limit` is less. */
export const HarQuerySchema = JournalQuerySchema.extend({
  limit: queryInt(0, 10_000).transform((v) => v ?? 10_000),
});
