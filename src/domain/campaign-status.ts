/**
 * The campaign and recipient status machines: the one transition table each, the checks
 * every status change goes through, the owned-campaign lookup they start from (another
 * app's campaign is a 404) and the one function that changes a campaign's status (docs/reference.md#send-a-campaign).
 */
import type { Campaign, CampaignStatus, RecipientStatus } from '../schemas/records.js';
import { badRequest, notFound } from './errors.js';
import { statusChangeRefused } from './error-messages.js';
import type { CampaignDeps } from './ports.js';

/** draft → scheduled → sending → sent | failed; draft → sending directly when sent now. */
export const CAMPAIGN_TRANSITIONS: Readonly<Record<CampaignStatus, readonly CampaignStatus[]>> = {
  draft: ['scheduled', 'sending'],
  scheduled: ['sending'],
  sending: ['sent', 'failed'],
  sent: [],
  failed: [],
};

/** pending → sent | failed; a recipient is delivered once. */
export const RECIPIENT_TRANSITIONS: Readonly<Record<RecipientStatus, readonly RecipientStatus[]>> = {
  pending: ['sent', 'failed'],
  sent: [],
  failed: [],
};

type Machine = 'campaign' | 'recipient';
type StatusOf<M extends Machine> = M extends 'campaign' ? CampaignStatus : RecipientStatus;

const TABLES: { [M in Machine]: Readonly<Record<StatusOf<M>, readonly StatusOf<M>[]>> } = {
  campaign: CAMPAIGN_TRANSITIONS,
  recipient: RECIPIENT_TRANSITIONS,
};

export function canTransition<M extends Machine>(machine: M, from: StatusOf<M>, to: StatusOf<M>): boolean {
  const table = TABLES[machine] as Readonly<Record<string, readonly string[]>>;
  return table[from]?.includes(to) ?? false;
}

/** Throws ERR_BAD_REQUEST naming both states when `from → to` is not in the table. */
export function assertCampaignStatusChange<M extends Machine>(machine: M, from: StatusOf<M>, to: StatusOf<M>): void {
  if (canTransition(machine, from, to)) return;
  const allowed = (TABLES[machine] as Readonly<Record<string, readonly string[]>>)[from] ?? [];
  throw statusChangeRefused(machine, from, to, allowed);
}

/**
 * Editing operations (update, add recipients, upload, send) need a draft campaign: once
 * scheduled or sent it is locked (real docs: PUT and add-recipients are draft only).
 */
export function assertDraft(campaign: { id: string; status: CampaignStatus }, operation: string): void {
  if (campaign.status === 'draft') return;
  throw badRequest(
    `Campaign ${campaign.id} is "${campaign.status}"; ${operation} needs a campaign in "draft" status.`,
    {
      status: `is "${campaign.status}", must be "draft"`,
    },
  );
}

export function findOwnedCampaign(deps: Pick<CampaignDeps, 'store'>, appId: string, id: string): Campaign {
  const campaign = deps.store.getCampaign(id);
  if (!campaign || campaign.appId !== appId) throw notFound('campaign', id);
  return campaign;
}

/** The only way a campaign's status changes: checked against the table, stamped, announced. */
export function changeCampaignStatus(
  deps: CampaignDeps,
  campaign: Campaign,
  to: CampaignStatus,
  patch: Partial<Campaign> = {},
): Campaign {
  assertCampaignStatusChange('campaign', campaign.status, to);
  const next = deps.store.updateCampaign(campaign.id, {
    ...patch,
    status: to,
    updatedAt: deps.clocks.clockFor(campaign.appId).nowIso(),
  });
  deps.events.emit({ type: 'campaign', campaign: next });
  return next;
}
