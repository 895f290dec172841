/**
 * Queries and bodies of the control plane (/__inspect, /__clock, …).
 */
import { z } from 'zod';

const isoInstant = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 instant')
  .transform((s) => Date.parse(s));

export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(0).max(10_000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const WaitQuerySchema = z.object({
  waitFor: z.coerce.number().int().min(1).max(10_000_000).optional(),
  timeoutMs: z.coerce.number().int().min(0).max(300_000).default(5_000),
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
  status: z.coerce.number().int().optional(),
  errorCode: z.string().optional(),
  scenario: z.string().optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
});

export const ClearQuerySchema = z.object({ appId: z.string().min(1).optional() });
