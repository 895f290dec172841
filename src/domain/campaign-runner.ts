/**
 * The background campaign runner: turns a sending campaign's pending recipients into
 * deliveries in time-boxed chunks, yielding to the event loop between chunks so a
 * 100,000-recipient campaign never blocks other requests, then closes the campaign.
 */
import type { Campaign, Template } from '../schemas/records.js';
import { assertCampaignStatusChange, changeCampaignStatus } from './campaign-status.js';
import {
  createContentCompiler,
  createDeliveryBatch,
  deliveredChannels,
  emitDeliveries,
  type DeliveryContext,
} from './deliveries.js';
import type { CampaignDeps, DeliveryFaultPolicy } from './ports.js';
import { rowContentByType } from './template-channels.js';

/**
 * Recipients delivered as one batch (one stored run); the time budget is checked between
 * batches (reading the clock per recipient would cost more).
 */
const BATCH_SIZE = 64;

export interface CampaignRunner {
  /** draft|scheduled → sending now (announced at once); delivery runs in the background. */
  start(campaign: Campaign, faults: DeliveryFaultPolicy): Campaign;
  /** Picks up a campaign already `sending` (emulator restarted from a data file). */
  resume(campaign: Campaign, faults: DeliveryFaultPolicy): void;
  /** Running sends (of one app when given) stop before their next chunk, leaving the rest pending. */
  halt(appId?: string): void;
  close(): void;
}

/** Why every recipient fails when the template became unusable between schedule and start. */
function unusableReason(campaign: Campaign, template: Template | undefined): string | null {
  if (!template) return `template ${campaign.templateId} no longer exists`;
  if (template.status !== 'approved')
    return `template "${template.key}" is "${template.status}" at send time; only approved templates can be sent`;
  return null;
}

/** The campaign's counts settled and its final status set, once no recipient is pending. */
function finishCampaign(deps: CampaignDeps, id: string): void {
  const campaign = deps.store.getCampaign(id);
  if (!campaign) return;
  const sent = deps.store.countRecipients(id, { status: 'sent' });
  const failed = deps.store.countRecipients(id, { status: 'failed' });
  // docs/reference.md#send-a-campaign: failed only when every recipient failed.
  changeCampaignStatus(deps, campaign, sent === 0 && failed > 0 ? 'failed' : 'sent', {
    sentCount: sent,
    failedCount: failed,
    completedAt: deps.clocks.clockFor(campaign.appId).nowIso(),
  });
}

/**
 * The next pending recipients (at most BATCH_SIZE) delivered as one batch. Each is marked
 * sent or failed here, so the next batch starts after them (the store's status index
 * finds it without a pass over those before). Their variables are handed to the batch as
 * the store keeps them, read when a delivery is. No context: the template became unusable,
 * and every recipient fails with `unusable`.
 */
function deliverBatch(
  deps: CampaignDeps,
  id: string,
  unusable: string | null,
  ctx: DeliveryContext | null,
  at: string,
): void {
  const pending = deps.store.pendingRecipients(id, BATCH_SIZE);
  if (pending.positions.length === 0) return;
  assertCampaignStatusChange('recipient', 'pending', 'sent');
  assertCampaignStatusChange('recipient', 'pending', 'failed');
  if (ctx === null) {
    deps.store.settleRecipients(id, pending, { at, reason: () => unusable, deliveryId: () => null });
    return;
  }
  const batch = createDeliveryBatch(ctx, pending.userIds, pending.variables);
  const stored = deps.store.addDeliveries(batch, deps.ids);
  deps.store.settleRecipients(id, pending, {
    at,
    reason: (k) => batch.failures.get(k)?.reason ?? null,
    deliveryId: (k) => stored.idAt(k),
  });
  emitDeliveries(deps.events, stored);
}

export function createCampaignRunner(deps: CampaignDeps): CampaignRunner {
  const budgetMs = deps.chunkBudgetMs ?? 5;
  /** Each running send's app and whether it was halted (its loop reads the flag before each chunk). */
  const running = new Map<string, { appId: string; halted: boolean }>();
  const compile = createContentCompiler();
  let closed = false;

  function finish(id: string): void {
    running.delete(id);
    finishCampaign(deps, id);
  }

  function run(initial: Campaign, faults: DeliveryFaultPolicy): void {
    const id = initial.id;
    if (running.has(id)) return;
    const run = { appId: initial.appId, halted: false };
    running.set(id, run);
    const template = deps.templates.findById(initial.appId, initial.templateId);
    const unusable = unusableReason(initial, template);
    // Rows are read once, when the campaign starts: a row changed while it runs applies to later sends.
    const rowContent = template ? rowContentByType(deps.store, deps.channels, initial.appId, template) : new Map();
    const hasPending = () => deps.store.countRecipients(id, { status: 'pending' }) > 0;

    const step = (): void => {
      const campaign = deps.store.getCampaign(id);
      // The emulator closed, data cleared, or the state replaced (an imported trace: halt()).
      if (run.halted) return;
      if (closed || !campaign) return void running.delete(id);
      const started = deps.runtime.elapsed();
      const at = deps.clocks.clockFor(campaign.appId).nowIso();
      const ctx: DeliveryContext | null =
        template && !unusable
          ? {
              appId: campaign.appId,
              template,
              mode: campaign.deliveryMode,
              title: null,
              tag: campaign.tag,
              pushData: null,
              notificationId: null,
              campaignId: id,
              createdAt: at,
              faults,
              compile,
              rowContent,
              channels: deliveredChannels(deps.channels, campaign.appId, template),
            }
          : null;
      do deliverBatch(deps, id, unusable, ctx, at);
      while (hasPending() && deps.runtime.elapsed() - started < budgetMs);
      if (hasPending()) deps.runtime.defer(step);
      else finish(id);
    };
    deps.runtime.defer(step);
  }

  return {
    start(campaign, faults) {
      const sending = changeCampaignStatus(deps, campaign, 'sending', {
        startedAt: deps.clocks.clockFor(campaign.appId).nowIso(),
      });
      run(sending, faults);
      return sending;
    },
    resume(campaign, faults) {
      if (campaign.status === 'sending') run(campaign, faults);
    },
    halt(appId) {
      for (const [id, run] of running) {
        if (appId !== undefined && run.appId !== appId) continue;
        run.halted = true;
        running.delete(id);
      }
    },
    close() {
      closed = true;
    },
  };
}
