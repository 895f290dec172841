/**
 * The campaign store port: campaigns and their recipients, one kind because they are kept
 * and dropped together (a campaign past the retention caps goes with its recipients).
 */
import type { Campaign, CampaignUpload, Recipient } from '../../schemas/records.js';
import type { ListResult, Page } from './lists.js';

export interface CampaignFilter {
  appId?: string;
  status?: string;
}

export interface RecipientFilter {
  status?: string;
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
  recipients(campaignId: string): readonly Recipient[];
  listRecipients(campaignId: string, filter: RecipientFilter, page: Page): ListResult<Recipient>;
  updateRecipient(campaignId: string, recipientId: string, patch: Partial<Recipient>): void;

  /** Remembers the campaign's last accepted upload (replacing the one before); it goes with the campaign. */
  setLastUpload(upload: CampaignUpload): void;
  lastUpload(campaignId: string): CampaignUpload | undefined;
}
