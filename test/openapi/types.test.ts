/**
 * The response schemas the document is generated from say exactly what the domain returns:
 * checked by the compiler (`npm run typecheck`), so a field added on one side only fails.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { AnalyticsService, ChannelMetrics, UserInsights } from '../../src/domain/analytics.js';
import type { CampaignView, InspectCampaignView } from '../../src/domain/campaigns.js';
import type { UploadResult } from '../../src/domain/campaign-recipients.js';
import type { CampaignService, SendCampaignResult } from '../../src/domain/campaigns.js';
import type { ChannelAvailability } from '../../src/domain/channels.js';
import type { ListResult } from '../../src/domain/ports.js';
import type { Delivery, JournalEntry, NotificationRecord, Recipient } from '../../src/schemas/records.js';
import type { ScenarioView } from '../../src/scenario-engine/engine.js';
import type * as R from '../../src/schemas/responses.js';
import type { ScenarioViewSchema } from '../../src/openapi/control.js';

type Out<S extends z.ZodType> = z.output<S>;
/** Each assignable to the other: no field on one side only, no type that differs. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe('response schemas match the domain types', () => {
  it('campaigns', () => {
    expectTypeOf<Same<Out<typeof R.CampaignViewSchema>, CampaignView>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof R.SendCampaignResultSchema>, SendCampaignResult>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof R.UploadResultSchema>, UploadResult>>().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Out<typeof R.AddRecipientsResultSchema>, ReturnType<CampaignService['addRecipients']>>
    >().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof R.InspectCampaignSchema>, InspectCampaignView>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof R.CampaignPageSchema>, ListResult<InspectCampaignView>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof R.RecipientPageSchema>, ListResult<Recipient>>>().toEqualTypeOf<true>();
  });

  it('channels and analytics', () => {
    expectTypeOf<Same<Out<typeof R.ChannelAvailabilitySchema>, ChannelAvailability>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof R.ChannelMetricsSchema>, ChannelMetrics>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof R.UserInsightsSchema>, UserInsights>>().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Out<typeof R.RecordEventResultSchema>, ReturnType<AnalyticsService['recordEvent']>>
    >().toEqualTypeOf<true>();
  });

  it('control plane', () => {
    expectTypeOf<Same<Out<typeof R.DeliveryPageSchema>, ListResult<Delivery>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof R.NotificationPageSchema>, ListResult<NotificationRecord>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof R.JournalPageSchema>, ListResult<JournalEntry>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Out<typeof ScenarioViewSchema>, ScenarioView>>().toEqualTypeOf<true>();
  });
});
