/**
 * The campaign and recipient status machines: the one transition table each, and the
 * checks every status change goes through (CONTRACT §5.4; research/real-service.md §3.2).
 */
import type { CampaignStatus, RecipientStatus } from '../schemas/records.js';
import { ApiError, badRequest } from './errors.js';

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
export function assertTransition<M extends Machine>(machine: M, from: StatusOf<M>, to: StatusOf<M>): void {
  if (canTransition(machine, from, to)) return;
  const allowed = (TABLES[machine] as Readonly<Record<string, readonly string[]>>)[from] ?? [];
  throw new ApiError(
    'ERR_BAD_REQUEST',
    `A ${machine} in status "${from}" cannot become "${to}"; from "${from}" it can become: ${allowed.length ? allowed.join(', ') : 'nothing (final state)'}.`,
    {
      message: `The ${machine} is not in a state that allows this operation.`,
      details: { status: `is "${from}"` },
    },
  );
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
