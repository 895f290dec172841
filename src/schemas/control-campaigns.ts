/**
 * Control-plane shapes for campaigns: /__inspect/campaigns queries, the SSE stream's
 * filters and the /__clock body (CONTRACT §6, §8).
 */
import { z } from 'zod';
import { CAMPAIGN_STATUSES, RECIPIENT_STATUSES } from './records.js';
import { PageQuerySchema } from './control.js';

export const InspectCampaignsQuerySchema = PageQuerySchema.extend({
  appId: z.string().optional(),
  status: z.enum(CAMPAIGN_STATUSES, { error: `must be one of ${CAMPAIGN_STATUSES.join(', ')}` }).optional(),
});

export const InspectRecipientsQuerySchema = PageQuerySchema.extend({
  status: z.enum(RECIPIENT_STATUSES, { error: `must be one of ${RECIPIENT_STATUSES.join(', ')}` }).optional(),
});

export const STREAM_EVENT_TYPES = ['delivery', 'campaign', 'request', 'notification'] as const;
export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];

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
});
export type StreamQuery = z.infer<typeof StreamQuerySchema>;

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
export type ClockBody = z.infer<typeof ClockBodySchema>;
