/**
 * OpenAPI operations of the channel routes.
 */
import { z } from 'zod';
import {
  ChannelSchema,
  CreateChannelBodySchema,
  ListChannelsQuerySchema,
  UpdateChannelBodySchema,
} from '../schemas/channels.js';
import { ChannelAvailabilitySchema } from '../schemas/responses.js';
import type { Resource } from './operation.js';

const ChannelRefParams = z.object({ id: z.string().describe('The channel id or key.') });

export const channelsResource: Resource = {
  tag: { name: 'Channels', description: "The app's delivery channels and how many of each type it may have." },
  components: { Channel: ChannelSchema, ChannelAvailability: ChannelAvailabilitySchema },
  operations: [
    {
      method: 'get',
      path: '/api/channels/availability',
      operationId: 'getChannelAvailability',
      summary: 'Channel limits by type',
      responses: {
        200: { description: 'One entry per channel type.', schema: z.array(ChannelAvailabilitySchema) },
      },
      errors: {},
    },
    {
      method: 'get',
      path: '/api/channels',
      operationId: 'listChannels',
      summary: 'List channels',
      query: ListChannelsQuerySchema,
      responses: {
        200: {
          description: "One page of the app's channels.",
          schema: z.array(ChannelSchema),
          headers: { 'X-Total-Count': 'How many items match, over all pages.' },
        },
      },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'post',
      path: '/api/channels',
      operationId: 'createChannel',
      summary: 'Create a channel',
      body: { schema: CreateChannelBodySchema, name: 'CreateChannelRequest' },
      responses: { 200: { description: 'The new channel.', schema: ChannelSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/api/channels/{id}',
      operationId: 'getChannel',
      summary: 'Get a channel',
      pathParams: ChannelRefParams,
      responses: { 200: { description: 'The channel.', schema: ChannelSchema } },
      errors: { 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'put',
      path: '/api/channels/{id}',
      operationId: 'updateChannel',
      summary: 'Update a channel',
      pathParams: ChannelRefParams,
      body: { schema: UpdateChannelBodySchema, name: 'UpdateChannelRequest' },
      responses: { 200: { description: 'The updated channel.', schema: ChannelSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
  ],
};
