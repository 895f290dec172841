/**
 * OpenAPI operations of the template routes.
 */
import { z } from 'zod';
import { CreateTemplateBodySchema, ListTemplatesQuerySchema, UpdateTemplateBodySchema } from '../schemas/templates.js';
import { SuccessSchema, TemplateViewSchema } from '../schemas/responses.js';
import type { Resource } from './operation.js';

const TemplateRefParams = z.object({ id: z.string().describe('The template id or key (`templateId`).') });

export const templatesResource: Resource = {
  tag: {
    name: 'Templates',
    description: 'Fixture templates (read-only, shared) and runtime templates created through the API.',
  },
  components: { Template: TemplateViewSchema, Success: SuccessSchema },
  operations: [
    {
      method: 'get',
      path: '/api/templates',
      operationId: 'listTemplates',
      summary: 'List templates',
      query: ListTemplatesQuerySchema,
      responses: {
        200: {
          description: 'One page of the templates this app sees.',
          schema: z.array(TemplateViewSchema),
          headers: { 'X-Total-Count': 'How many items match, over all pages.' },
        },
      },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'post',
      path: '/api/templates',
      operationId: 'createTemplate',
      summary: 'Create a template (as a draft)',
      body: { schema: CreateTemplateBodySchema, name: 'CreateTemplateRequest' },
      responses: { 200: { description: 'The new template.', schema: TemplateViewSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'get',
      path: '/api/templates/{id}',
      operationId: 'getTemplate',
      summary: 'Get a template',
      pathParams: TemplateRefParams,
      responses: { 200: { description: 'The template.', schema: TemplateViewSchema } },
      errors: { 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'put',
      path: '/api/templates/{id}',
      operationId: 'updateTemplate',
      summary: 'Update a template (status moves draft → approved → archived)',
      pathParams: TemplateRefParams,
      body: { schema: UpdateTemplateBodySchema, name: 'UpdateTemplateRequest' },
      responses: { 200: { description: 'The updated template.', schema: TemplateViewSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'delete',
      path: '/api/templates/{id}',
      operationId: 'deleteTemplate',
      summary: 'Delete a runtime template',
      pathParams: TemplateRefParams,
      responses: { 200: { description: 'Deleted.', schema: SuccessSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
  ],
};
