/**
 * OpenAPI operations of the analytics routes.
 */
import { z } from 'zod';
import { ChannelAnalyticsQuerySchema, RecordEventBodySchema, RollupBodySchema } from '../schemas/analytics.js';
import {
  ChannelMetricsSchema,
  RecordEventResultSchema,
  RollupResultSchema,
  UserInsightsSchema,
} from '../schemas/responses.js';
import type { Resource } from './operation.js';

export const analyticsResource: Resource = {
  tag: { name: 'Analytics', description: "Delivery and engagement metrics from the app's own records." },
  components: {
    ChannelMetrics: ChannelMetricsSchema,
    UserInsights: UserInsightsSchema,
    RecordEventResult: RecordEventResultSchema,
    RollupResult: RollupResultSchema,
  },
  operations: [
    {
      method: 'get',
      path: '/api/analytics/channels',
      operationId: 'getChannelAnalytics',
      summary: 'Metrics per channel type over a time range',
      query: ChannelAnalyticsQuerySchema,
      responses: { 200: { description: 'One entry per channel type.', schema: z.array(ChannelMetricsSchema) } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
    {
      method: 'get',
      path: '/api/analytics/users/{userId}',
      operationId: 'getUserAnalytics',
      summary: "A user's notification history",
      pathParams: z.object({ userId: z.string().describe('The user id.') }),
      responses: { 200: { description: 'The user’s history.', schema: UserInsightsSchema } },
      errors: {},
    },
    {
      method: 'post',
      path: '/api/analytics/events',
      operationId: 'recordAnalyticsEvent',
      summary: 'Record a delivered / viewed / clicked event (idempotent)',
      body: { schema: RecordEventBodySchema, name: 'RecordEventRequest' },
      responses: { 200: { description: 'The event, recorded once.', schema: RecordEventResultSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
    },
    {
      method: 'post',
      path: '/api/analytics/rollup',
      operationId: 'computeAnalyticsRollup',
      summary: 'Compute the rollup of a date range (idempotent)',
      description:
        "The real service aggregates raw events into summary metrics. The emulator's analytics are always " +
        "current, so this changes no other answer: it counts the app's recorded events in the range.",
      body: { schema: RollupBodySchema, name: 'RollupRequest' },
      responses: { 200: { description: 'The range and the events it holds.', schema: RollupResultSchema } },
      errors: { 400: ['ERR_BAD_REQUEST'] },
    },
  ],
};
