/**
 * fixtures/channels.json: an array of channels in the API's shape. `appId` absent = a
 * channel every app sees; `id` absent = a stable id derived from appId and key.
 */
import { z } from 'zod';
import { CHANNEL_TEMPLATE_TYPES, CHANNEL_TYPES } from './channel-types.js';

export const ChannelFileEntrySchema = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{24}$/, 'must be 24 lowercase hex characters')
    .optional(),
  name: z.string().trim().min(1, 'is required: a non-empty name'),
  key: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a slug: lowercase letters, digits, "-" and "_"')
    .optional(),
  type: z.enum(CHANNEL_TYPES, { error: `is required: one of ${CHANNEL_TYPES.join(', ')}` }),
  templateType: z.enum(CHANNEL_TEMPLATE_TYPES, { error: `is required: one of ${CHANNEL_TEMPLATE_TYPES.join(', ')}` }),
  enabled: z.boolean().default(true),
  categoryFilter: z.boolean().default(false),
  templateLabel: z.boolean().default(false),
  config: z.record(z.string(), z.unknown()).default({}),
  appId: z.string().min(1).optional(),
  createdAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  updatedAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
});

export const ChannelsFileSchema = z.array(ChannelFileEntrySchema, { error: 'must be an array of channels' });
