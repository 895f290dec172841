/**
 * OpenAPI operations of the template-channel rows (a template's content for one channel).
 */
import { z } from 'zod';
import {
  CreateTemplateChannelBodySchema,
  ListTemplateChannelsQuerySchema,
  TemplateChannelSchema,
  UpdateTemplateChannelBodySchema,
} from '../schemas/template-channels.js';
import type { Resource } from './operation.js';

const RowParams = z.object({
  templateId: z.string().describe('The template id or slug.'),
  channelId: z.string().describe('The channel id or key.'),
});

export const templateChannelsResource: Resource = {
  tag: {
    name: 'Template channels',
    description: "A template's content for one channel: what a send renders for that channel.",
  },
  components: { TemplateChannel: TemplateChannelSchema },
  operations: [
    {
      method: 'get',
      path: '/api/template-channels',
      operationId: 'listTemplateChannels',
      summary: "List a template's rows",
      query: ListTemplateChannelsQuerySchema,
      responses: {
        200: {
          description: 'One page of rows.',
          schema: z.array(TemplateChannelSchema),
          headers: { 'X-Total-Count': 'How many items match, over all pages.' },
        },
      },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'post',
      path: '/api/template-channels',
      operationId: 'createTemplateChannel',
      summary: 'Create the row of a template for one of its channels',
      body: { schema: CreateTemplateChannelBodySchema, name: 'CreateTemplateChannelRequest' },
      responses: { 200: { description: 'The new row.', schema: TemplateChannelSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/api/template-channels/{templateId}/{channelId}',
      operationId: 'getTemplateChannel',
      summary: 'Get one row',
      pathParams: RowParams,
      responses: { 200: { description: 'The row.', schema: TemplateChannelSchema } },
      errors: { 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'put',
      path: '/api/template-channels/{templateId}/{channelId}',
      operationId: 'updateTemplateChannel',
      summary: "Replace a row's content",
      description: 'Only later sends see the new content; deliveries already made keep what they rendered.',
      pathParams: RowParams,
      body: { schema: UpdateTemplateChannelBodySchema, name: 'UpdateTemplateChannelRequest' },
      responses: { 200: { description: 'The updated row.', schema: TemplateChannelSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
  ],
};
