/**
 * Queries of the control endpoints the web inspector reads beyond the inspect lists: apps,
 * templates with sample values, and delivery counts over time. An empty value counts as absent
 * (the routes refuse parameters these schemas do not name).
 */
import { z } from 'zod';
import { MODES } from './records.js';

const emptyIsAbsent = (v: unknown) => (v === '' ? undefined : v);
const optionalText = z.preprocess(emptyIsAbsent, z.string().optional());
const wholeNumber = (min: number, max: number) =>
  z.preprocess(
    emptyIsAbsent,
    z.coerce
      .number({ error: `must be a whole number from ${min} to ${max}` })
      .int(`must be a whole number from ${min} to ${max}`)
      .min(min, `must be a whole number from ${min} to ${max}`)
      .max(max, `must be a whole number from ${min} to ${max}`)
      .optional(),
  );
const instant = z.preprocess(
  emptyIsAbsent,
  z
    .string()
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}(T|$)/.test(s) && !Number.isNaN(Date.parse(s)),
      'must be an ISO 8601 instant, e.g. 2030-01-01T00:00:00Z',
    )
    .transform((s) => Date.parse(s))
    .optional(),
);

/** GET /__apps/{appId}/templates: `seed` picks another set of sample values (default 1). */
export const AppTemplatesQuerySchema = z.object({ seed: wholeNumber(0, 2 ** 31 - 1) });

export const MAX_STATS_BUCKETS = 1440;

/** GET /__inspect/delivery-stats: counts per bucket over [since, until] (default: the last hour). */
export const DeliveryStatsQuerySchema = z.object({
  appId: optionalText,
  templateKey: optionalText,
  campaignId: optionalText,
  notificationId: optionalText,
  channel: optionalText,
  mode: z.preprocess(emptyIsAbsent, z.enum(MODES, { error: `must be one of ${MODES.join(', ')}` }).optional()),
  /** @default until minus one hour */
  since: instant,
  /** @default now on the emulator clock */
  until: instant,
  /** @default 60000 (1,000 to 86,400,000; at most 1,440 buckets) */
  bucketMs: wholeNumber(1000, 86_400_000),
});
/** The stats query as read: instants as epoch ms. */
export type DeliveryStatsQuery = z.output<typeof DeliveryStatsQuerySchema>;

/** GET /__inspect/delivery-stats answers this: every bucket of the range, empty ones as 0. */
export const DeliveryStatsSchema = z.object({
  since: z.string(),
  until: z.string(),
  bucketMs: z.number(),
  totals: z.object({ sent: z.number(), failed: z.number() }),
  buckets: z.array(z.object({ start: z.string(), sent: z.number(), failed: z.number() })),
});
export type DeliveryStats = z.infer<typeof DeliveryStatsSchema>;

/** GET /__apps answers this (never the apps' keys). */
export const AppListSchema = z.object({
  mode: z.enum(['open', 'strict']),
  /** Every channel type a delivery can name, for a channel filter. */
  channelTypes: z.array(z.string()),
  items: z.array(
    z.object({ appId: z.string(), region: z.string().nullable(), configured: z.boolean(), templates: z.number() }),
  ),
});
export type AppList = z.infer<typeof AppListSchema>;
