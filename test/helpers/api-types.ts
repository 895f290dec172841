/**
 * Answer types for typing call<T>() / callOk<T>() in tests, each inferred from the zod
 * schema the routes and the OpenAPI document use (never written out a second time).
 */
import type { z } from 'zod';
import type {
  AddRecipientsResultSchema,
  CampaignPageSchema,
  CampaignViewSchema,
  ClockStateSchema,
  DeliveryPageSchema,
  HealthSchema,
  JournalPageSchema,
  NotificationPageSchema,
  RecipientPageSchema,
  RollupResultSchema,
  UploadResultSchema,
} from '../../src/schemas/responses.js';
import type { AppTemplatesSchema, ScenarioDetailSchema, ScenarioListSchema } from '../../src/openapi/control.js';

export type { TemplateView } from '../../src/domain/template-view.js';
export type { Channel } from '../../src/schemas/channels.js';
export type { ChannelAvailability } from '../../src/domain/channels.js';
export type { ChannelMetrics, UserInsights } from '../../src/domain/analytics.js';
export type { TemplateChannel } from '../../src/schemas/template-channels.js';
export type { AppList, DeliveryStats } from '../../src/schemas/control-inspector.js';
export type { Campaign, Delivery, JournalEntry, Notification } from '../../src/schemas/records.js';

export type Health = z.infer<typeof HealthSchema>;
export type ClockState = z.infer<typeof ClockStateSchema>;
export type DeliveryPage = z.infer<typeof DeliveryPageSchema>;
export type NotificationPage = z.infer<typeof NotificationPageSchema>;
export type JournalPage = z.infer<typeof JournalPageSchema>;
export type CampaignPage = z.infer<typeof CampaignPageSchema>;
export type RecipientPage = z.infer<typeof RecipientPageSchema>;
export type CampaignView = z.infer<typeof CampaignViewSchema>;
export type AddRecipientsResult = z.infer<typeof AddRecipientsResultSchema>;
export type UploadResult = z.infer<typeof UploadResultSchema>;
export type RollupResult = z.infer<typeof RollupResultSchema>;
export type ScenarioList = z.infer<typeof ScenarioListSchema>;
export type ScenarioDetail = z.infer<typeof ScenarioDetailSchema>;
export type AppTemplates = z.infer<typeof AppTemplatesSchema>;
