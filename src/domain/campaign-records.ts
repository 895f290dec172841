/**
 * What the campaign modules share: their dependencies, the owned-campaign lookup (another
 * app's campaign is a 404, CONTRACT §3), status changes through the one transition table,
 * and the enriched view the list/get routes answer with.
 */
import type { Campaign, CampaignStatus } from '../schemas/records.js';
import { assertTransition } from './campaign-status.js';
import { notFound, notFoundInAnyApp } from './errors.js';
import type { ChannelCatalog, Clock, Events, Ids, Store, TemplateCatalog } from './ports.js';

/** How background work yields: injected so the domain needs no timers of its own. */
export interface CampaignRuntime {
  /** Runs `fn` on a later turn of the event loop (setImmediate on Node). */
  defer(fn: () => void): void;
  /** Monotonic milliseconds, for the per-chunk time budget. */
  elapsed(): number;
}

export interface CampaignDeps {
  store: Store;
  templates: TemplateCatalog;
  channels: ChannelCatalog;
  clock: Clock;
  ids: Ids;
  events: Events;
  runtime: CampaignRuntime;
  /** Work per chunk before yielding to the event loop. @default 5 */
  chunkBudgetMs?: number;
}

/** List/get answer: the record plus the real service's enrichment (research §2.4). */
export type CampaignView = Campaign & { templateName: string | null; channelTypes: string[] };

export function findOwnedCampaign(deps: Pick<CampaignDeps, 'store'>, appId: string, id: string): Campaign {
  const campaign = deps.store.getCampaign(id);
  if (!campaign || campaign.appId !== appId) throw notFound('campaign', id);
  return campaign;
}

export function findCampaign(deps: Pick<CampaignDeps, 'store'>, id: string): Campaign {
  const campaign = deps.store.getCampaign(id);
  if (!campaign) throw notFoundInAnyApp('campaign', id);
  return campaign;
}

/** The only way a campaign's status changes: checked against the table, stamped, announced. */
export function changeCampaignStatus(
  deps: CampaignDeps,
  campaign: Campaign,
  to: CampaignStatus,
  patch: Partial<Campaign> = {},
): Campaign {
  assertTransition('campaign', campaign.status, to);
  const next = deps.store.updateCampaign(campaign.id, { ...patch, status: to, updatedAt: deps.clock.nowIso() });
  deps.events.emit({ type: 'campaign', campaign: next });
  return next;
}

export function toCampaignView(deps: Pick<CampaignDeps, 'templates'>, campaign: Campaign): CampaignView {
  const template = deps.templates.findById(campaign.appId, campaign.templateId);
  return { ...campaign, templateName: template?.name ?? null, channelTypes: template?.channels ?? [] };
}
