/**
 * Analytics shapes of the real service's API (docs/fidelity.md#analytics): the stored event, the
 * record-event body and the channel analytics query.
 */
import { z } from 'zod';
import { CHANNEL_TYPES } from './channel-types.js';
import { absentWhenEmpty } from './paging.js';

export const ANALYTICS_EVENT_TYPES = ['delivered', 'viewed', 'clicked'] as const;

export const AnalyticsEventSchema = z.object({
  id: z.string(),
  appId: z.string(),
  /** A campaign id or a notification id (docs/fidelity.md#analytics: the real docs use campaignId for both). */
  campaignId: z.string(),
  userId: z.string(),
  channelType: z.enum(CHANNEL_TYPES),
  eventType: z.enum(ANALYTICS_EVENT_TYPES),
  createdAt: z.string(),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEventSchema>;

export const RecordEventBodySchema = z.object({
  campaignId: z.string().min(1, 'must be a campaign or notification id'),
  userId: z.string().min(1, 'must be a non-empty user id'),
  channelType: z.enum(CHANNEL_TYPES),
  eventType: z.enum(ANALYTICS_EVENT_TYPES),
});
export type RecordEventBody = z.infer<typeof RecordEventBodySchema>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const isoInstant = (endOfDay: boolean) =>
  z
    .string({ error: 'is required (ISO 8601 date or date-time)' })
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)),
      'must be an ISO 8601 date or date-time',
    )
    // A bare date as `to` covers that whole day.
    .transform((s) => Date.parse(s) + (endOfDay && DATE_ONLY.test(s) ? 86_400_000 - 1 : 0));

export const ChannelAnalyticsQuerySchema = z.object({
  from: absentWhenEmpty(isoInstant(false)),
  to: absentWhenEmpty(isoInstant(true)),
  granularity: absentWhenEmpty(z.enum(['hourly', 'daily']).default('daily')),
});
export type ChannelAnalyticsQuery = z.infer<typeof ChannelAnalyticsQuerySchema>;

const ROLLUP_INSTANT = 'an ISO 8601 date-time with a time zone, e.g. 2030-01-01T00:00:00Z';
/** A bound of the rollup's range: the real docs ask for a date-time, so a bare date is refused [decided]. */
const rollupInstant = z.iso.datetime({
  offset: true,
  error: (issue) => (issue.input === undefined ? `is required: ${ROLLUP_INSTANT}` : `must be ${ROLLUP_INSTANT}`),
});

export const RollupBodySchema = z.object({
  from: rollupInstant.describe('Start of the range, inclusive.'),
  to: rollupInstant.describe('End of the range, inclusive; not before `from`.'),
});
export type RollupBody = z.infer<typeof RollupBodySchema>;
