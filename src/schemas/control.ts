/**
 * Queries and bodies of the control plane (/__inspect, /__clock, …).
 */
import { z } from 'zod';

const isoInstant = z
  .string()
  // Date.parse alone takes "5" or "March 7"; require the ISO date at least.
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}(T|$)/.test(s) && !Number.isNaN(Date.parse(s)),
    'must be an ISO 8601 instant, e.g. 2030-01-01T00:00:00Z',
  )
  .transform((s) => Date.parse(s));

/** A whole number from a query string; `?limit=` (empty) counts as absent, not as 0. Errors name the range. */
const queryInt = (min: number, max: number, note = '') => {
  const range =
    max === Number.MAX_SAFE_INTEGER
      ? `must be a whole number, ${min} or more${note}`
      : `must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}${note}`;
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

export const PageQuerySchema = z.object({
  limit: queryInt(0, 10_000).transform((v) => v ?? 100),
  offset: queryInt(0, Number.MAX_SAFE_INTEGER).transform((v) => v ?? 0),
});

export const WaitQuerySchema = z.object({
  waitFor: queryInt(1, 10_000_000),
  timeoutMs: queryInt(0, 300_000, ' (milliseconds; at most 5 minutes)').transform((v) => v ?? 5_000),
});

export const DeliveryQuerySchema = PageQuerySchema.extend(WaitQuerySchema.shape).extend({
  appId: z.string().optional(),
  userId: z.string().optional(),
  templateKey: z.string().optional(),
  templateId: z.string().optional(),
  campaignId: z.string().optional(),
  notificationId: z.string().optional(),
  mode: z.string().optional(),
  channel: z.string().optional(),
  status: z.string().optional(),
  tag: z.string().optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
});
export type DeliveryQuery = z.infer<typeof DeliveryQuerySchema>;

export const NotificationQuerySchema = PageQuerySchema.extend({
  appId: z.string().optional(),
  templateKey: z.string().optional(),
  notificationId: z.string().optional(),
  mode: z.string().optional(),
  tag: z.string().optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
});

export const JournalQuerySchema = PageQuerySchema.extend({
  appId: z.string().optional(),
  method: z.string().optional(),
  path: z.string().optional(),
  status: queryInt(100, 599),
  errorCode: z.string().optional(),
  scenario: z.string().optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
});

export const ClearQuerySchema = z.object({ appId: z.string().min(1).optional() });

/** PUT /__scenarios/active: the whole active set. */
export const ActiveScenariosBodySchema = z.strictObject({
  names: z.array(z.string().min(1), { error: 'must be an array of scenario names' }),
});
