/**
 * Each list of records the emulator keeps, with its element's schema, in the order a trace
 * holds them: the one table the trace reader and the data file's check both read.
 */
import { AnalyticsEventSchema } from './analytics.js';
import { ChannelSchema } from './channels.js';
import {
  CampaignSchema,
  CampaignUploadSchema,
  DeliverySchema,
  JournalEntrySchema,
  NotificationRecordSchema,
  RecipientSchema,
  TemplateSchema,
} from './records.js';
import { TemplateChannelRecordSchema } from './template-channels.js';
import { TemplateExtrasSchema } from './templates.js';

export const RECORD_LISTS = {
  /** Runtime templates as the store keeps them: the record and the real service's fields (`config`…). */
  templates: TemplateSchema.extend(TemplateExtrasSchema.shape),
  channels: ChannelSchema,
  templateChannels: TemplateChannelRecordSchema,
  campaigns: CampaignSchema,
  /** Beside their campaigns, one per line in a trace: a 200,000-recipient campaign is not one line of 60 MB. */
  recipients: RecipientSchema,
  /** Each campaign's last CSV upload (rows skipped and why), as /__inspect/campaigns shows it. */
  campaignUploads: CampaignUploadSchema,
  notifications: NotificationRecordSchema,
  deliveries: DeliverySchema,
  journal: JournalEntrySchema,
  analyticsEvents: AnalyticsEventSchema,
} as const;
