/**
 * Request shapes of the emulated API (shape only: rules with their own error codes,
 * such as mode and target count, are checked in domain/ in the contract's order).
 */
import { z } from 'zod';

const nonBlank = (what: string) => z.string().refine((s) => s.trim().length > 0, `must be a non-empty ${what}`);
const jsonObject = z.record(z.string(), z.unknown());

export const SendNotificationBodySchema = z.object({
  template: z
    .object({
      key: nonBlank('template key').optional(),
      id: nonBlank('template id').optional(),
      variables: jsonObject.optional(),
      notificationPushData: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
    }, { error: 'must be an object with "key" or "id"' })
    .refine((t) => t.key !== undefined || t.id !== undefined, {
      message: 'one of "template.key" or "template.id" is required',
      path: ['key'],
    }),
  targets: z
    .array(nonBlank('user ID (string)'), { error: 'must be an array of user IDs' })
    .min(1, 'must contain at least 1 user ID'),
  mode: z.string({ error: 'is required: "realtime" or "batch"' }),
  title: z.string().nullish(),
  tag: z.string().nullish(),
});
export type SendNotificationBody = z.infer<typeof SendNotificationBodySchema>;
