/**
 * The campaign store port: campaigns and their recipients, one kind because they are kept
 * and dropped together (a campaign past the retention caps goes with its recipients).
 */
import type { CampaignFilterSchema, RecipientFilterSchema } from '../../schemas/control.js';
import type { Campaign, CampaignUpload, Recipient } from '../../schemas/records.js';
import type { PerUser } from './deliveries.js';
import type { FilterOf, ListResult, Page } from './lists.js';

/** What GET /__inspect/campaigns filters on. */
export type CampaignFilter = FilterOf<typeof CampaignFilterSchema>;

/** What a campaign's recipients are filtered on. */
export type RecipientFilter = FilterOf<typeof RecipientFilterSchema>;

/** What a campaign send changes on a recipient. */
export type RecipientUpdate = Partial<Pick<Recipient, 'status' | 'failureReason' | 'deliveryId' | 'updatedAt'>>;

/** A campaign's recipients in the order they were added, read one by one (none is built before it is read). */
export interface RecipientList extends Iterable<Recipient> {
  readonly length: number;
  at(index: number): Recipient | undefined;
}

/** A campaign's next pending recipients, as a send needs them (the records are not built). */
export interface PendingRecipients {
  /** Where each stands in the campaign's list: settleRecipients finds them there, until the list next changes. */
  readonly positions: readonly number[];
  readonly userIds: readonly string[];
  /** Each one's variables, read when a delivery made for it is read. */
  readonly variables: PerUser<Record<string, unknown>>;
}

/** What a send made of a batch of pending recipients: the k-th one's outcome, for settleRecipients. */
export interface RecipientOutcomes {
  /** When they were settled (each one's updatedAt). */
  readonly at: string;
  /** Why the k-th one failed, or null: it was sent. */
  reason(k: number): string | null;
  /** The id of the delivery made for the k-th one, or null when none was made. */
  deliveryId(k: number): string | null;
}

export interface CampaignStore {
  addCampaign(campaign: Campaign): void;
  getCampaign(id: string): Campaign | undefined;
  updateCampaign(id: string, patch: Partial<Campaign>): Campaign;
  listCampaigns(filter: CampaignFilter): Campaign[];
  /** One page of listCampaigns, in creation order (newest first with `desc`), read from an index by app and status. */
  queryCampaigns(filter: CampaignFilter, page: Page): ListResult<Campaign>;

  addRecipients(campaignId: string, recipients: Recipient[]): void;
  hasRecipient(campaignId: string, userId: string): boolean;
  recipients(campaignId: string): RecipientList;
  /** How many of the campaign's recipients match (a status index: no pass over them). */
  countRecipients(campaignId: string, filter: RecipientFilter): number;
  listRecipients(campaignId: string, filter: RecipientFilter, page: Page): ListResult<Recipient>;
  /** The first pending recipients in the order they were added: at most `max` (fewer if the store keeps them apart). */
  pendingRecipients(campaignId: string, max: number): PendingRecipients;
  updateRecipient(campaignId: string, recipientId: string, patch: RecipientUpdate): void;
  /**
   * Marks `pending` (just read by pendingRecipients, the list unchanged since) sent or failed as
   * `outcomes` says: one call per batch, the strings they share looked up once.
   */
  settleRecipients(campaignId: string, pending: PendingRecipients, outcomes: RecipientOutcomes): void;

  /** Remembers the campaign's last accepted upload (replacing the one before); it goes with the campaign. */
  setLastUpload(upload: CampaignUpload): void;
  lastUpload(campaignId: string): CampaignUpload | undefined;
}
