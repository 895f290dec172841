/**
 * The background campaign runner: turns a sending campaign's pending recipients into
 * deliveries in time-boxed chunks, yielding to the event loop between chunks so a
 * 100,000-recipient campaign never blocks other requests, then closes the campaign.
 */
import type { Campaign, Delivery, Recipient, Template } from '../schemas/records.js';
import { assertCampaignStatusChange, changeCampaignStatus } from './campaign-status.js';
import { createContentCompiler, createDeliveryBuilder, deliveredChannels } from './deliveries.js';
import type { CampaignDeps, DeliveryFaultPolicy } from './ports.js';
import { rowContentByType } from './template-channels.js';

/** Checked every this many recipients (reading the clock per recipient would cost more). */
const BUDGET_CHECK_EVERY = 32;

export interface CampaignRunner {
  /** draft|scheduled → sending now (announced at once); delivery runs in the background. */
  start(campaign: Campaign, faults: DeliveryFaultPolicy): Campaign;
  /** Picks up a campaign already `sending` (emulator restarted from a data file). */
  resume(campaign: Campaign, faults: DeliveryFaultPolicy): void;
  isRunning(campaignId: string): boolean;
  close(): void;
}

/** Why every recipient fails when the template became unusable between schedule and start. */
function unusableReason(campaign: Campaign, template: Template | undefined): string | null {
  if (!template) return `template ${campaign.templateId} no longer exists`;
  if (template.status !== 'approved')
    return `template "${template.key}" is "${template.status}" at send time; only approved templates can be sent`;
  return null;
}

export function createCampaignRunner(deps: CampaignDeps): CampaignRunner {
  const budgetMs = deps.chunkBudgetMs ?? 5;
  const running = new Set<string>();
  const compile = createContentCompiler();
  let closed = false;

  function markRecipient(
    campaignId: string,
    r: Recipient,
    status: 'sent' | 'failed',
    reason: string | null,
    deliveryId: string | null,
    at: string,
  ): void {
    assertCampaignStatusChange('recipient', r.status, status);
    deps.store.updateRecipient(campaignId, r.id, { status, failureReason: reason, deliveryId, updatedAt: at });
  }

  function finish(id: string): void {
    running.delete(id);
    const campaign = deps.store.getCampaign(id);
    if (!campaign) return;
    let sent = 0;
    let failed = 0;
    for (const r of deps.store.recipients(id)) {
      if (r.status === 'sent') sent++;
      else if (r.status === 'failed') failed++;
    }
    // docs/reference.md#send-a-campaign: failed only when every recipient failed.
    changeCampaignStatus(deps, campaign, sent === 0 && failed > 0 ? 'failed' : 'sent', {
      sentCount: sent,
      failedCount: failed,
      completedAt: deps.clock.nowIso(),
    });
  }

  function run(initial: Campaign, faults: DeliveryFaultPolicy): void {
    const id = initial.id;
    if (running.has(id)) return;
    running.add(id);
    const template = deps.templates.findById(initial.appId, initial.templateId);
    const unusable = unusableReason(initial, template);
    // Rows are read once, when the campaign starts: a row changed while it runs applies to later sends.
    const rowContent = template ? rowContentByType(deps.store, deps.channels, initial.appId, template) : new Map();
    const list = deps.store.recipients(id);
    let index = 0;

    const step = (): void => {
      const campaign = deps.store.getCampaign(id);
      if (closed || !campaign) return void running.delete(id); // emulator closed or data cleared
      const started = deps.runtime.elapsed();
      const at = deps.clock.nowIso();
      const build =
        template && !unusable
          ? createDeliveryBuilder({
              appId: campaign.appId,
              template,
              mode: campaign.deliveryMode,
              title: null,
              tag: campaign.tag,
              pushData: null,
              notificationId: null,
              campaignId: id,
              createdAt: at,
              ids: deps.ids,
              faults,
              compile,
              rowContent,
              channels: deliveredChannels(template, deps.channels.list(campaign.appId)),
            })
          : null;
      const batch: Delivery[] = [];
      while (index < list.length) {
        const r = list[index++] as Recipient;
        if (r.status === 'pending') {
          if (build) {
            const delivery = build(r.userId, r.variables);
            batch.push(delivery);
            markRecipient(id, r, delivery.status, delivery.failureReason, delivery.id, at);
          } else {
            markRecipient(id, r, 'failed', unusable, null, at);
          }
        }
        if (index % BUDGET_CHECK_EVERY === 0 && deps.runtime.elapsed() - started >= budgetMs) break;
      }
      if (batch.length > 0) {
        deps.store.addDeliveries(batch);
        for (const delivery of batch) deps.events.emit({ type: 'delivery', delivery });
      }
      if (index < list.length) deps.runtime.defer(step);
      else finish(id);
    };
    deps.runtime.defer(step);
  }

  return {
    start(campaign, faults) {
      const sending = changeCampaignStatus(deps, campaign, 'sending', { startedAt: deps.clock.nowIso() });
      run(sending, faults);
      return sending;
    },
    resume(campaign, faults) {
      if (campaign.status === 'sending') run(campaign, faults);
    },
    isRunning: (campaignId) => running.has(campaignId),
    close() {
      closed = true;
    },
  };
}
