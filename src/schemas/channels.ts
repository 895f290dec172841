/**
 * Channel shapes of the real service's API beyond our spec (docs/fidelity.md#channels): the record,
 * the create and update bodies, and the channel type lists other resources share.
 */
import { z } from 'zod';

import { pagedQuery } from './paging.js';
import { CHANNEL_TEMPLATE_TYPES, CHANNEL_TYPES } from './channel-types.js';
export { CHANNEL_TYPES, type ChannelType } from './channel-types.js';

export const JsonObject = z.record(z.string(), z.unknown());

export const ChannelSchema = z.object({
  id: z.string(),
  appId: z.string(),
  name: z.string(),
  key: z.string(),
  type: z.enum(CHANNEL_TYPES),
  templateType: z.enum(CHANNEL_TEMPLATE_TYPES),
  enabled: z.boolean(),
  categoryFilter: z.boolean(),
  templateLabel: z.boolean(),
  config: JsonObject,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Channel = z.infer<typeof ChannelSchema>;

export const CreateChannelBodySchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty string'),
  type: z.enum(CHANNEL_TYPES),
  templateType: z.enum(CHANNEL_TEMPLATE_TYPES),
  enabled: z.boolean().default(true),
  categoryFilter: z.boolean().default(false),
  templateLabel: z.boolean().default(false),
  config: JsonObject.default({}),
});
export type CreateChannelBody = z.infer<typeof CreateChannelBodySchema>;

/** Immutable fields are accepted loosely here so the domain can say "immutable" rather than "wrong type". */
export const UpdateChannelBodySchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty string').optional(),
  enabled: z.boolean().optional(),
  templateType: z.enum(CHANNEL_TEMPLATE_TYPES).optional(),
  config: JsonObject.optional(),
  type: z.unknown().optional(),
  key: z.unknown().optional(),
  categoryFilter: z.unknown().optional(),
  templateLabel: z.unknown().optional(),
});
export type UpdateChannelBody = z.infer<typeof UpdateChannelBodySchema>;

export const ListChannelsQuerySchema = pagedQuery({});
