/**
 * Request shapes of the emulated API (shape only: rules with their own error codes,
 * such as mode and target count, are checked in domain/ in the contract's order).
 */
import { z } from 'zod';
import { userIdList } from './user-ids.js';
import { jsonObject } from './json-object.js';

const nonBlank = (what: string) => z.string().refine((s) => s.trim().length > 0, `must be a non-empty ${what}`);
const anObject = jsonObject('must be an object');

export const SendNotificationBodySchema = z.object({
  template: z
    .object(
      {
        key: nonBlank('template key').optional(),
        id: nonBlank('template id').optional(),
        variables: anObject.nullish(),
        notificationPushData: anObject.nullish(),
      },
      { error: 'must be an object with "key" or "id"' },
    )
    .refine((t) => t.key !== undefined || t.id !== undefined, {
      message: 'one of "template.key" or "template.id" is required',
      path: ['key'],
    }),
  targets: userIdList(),
  mode: z.string({ error: 'is required: "realtime" or "batch"' }),
  title: z.string().nullish(),
  tag: z.string().nullish(),
});
export type SendNotificationBody = z.infer<typeof SendNotificationBodySchema>;
