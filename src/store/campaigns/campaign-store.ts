/**
 * Campaigns and their recipients in memory: the CampaignStore port. One kind because the
 * retention caps drop a campaign with its recipients. Recipients are kept per campaign in
 * blocks (recipient-list.ts), sealed into columns on later turns in slices of a few
 * milliseconds, so an upload's one step that cannot yield only slices its list.
 */
import type { Campaign, CampaignUpload, Recipient } from '../../schemas/records.js';
import type { CampaignStore, RecipientList } from '../../domain/ports.js';
import { CampaignIndex } from './campaign-index.js';
import { CampaignRecipients, NO_PENDING } from './recipient-list.js';
import { SealQueue, type Sealable } from '../shared/seal-queue.js';
import type { KindOptions, RecordKind } from '../store-data.js';

type CampaignData = 'campaigns' | 'recipients' | 'campaignUploads';
type CampaignStats = 'campaigns' | 'droppedCampaigns' | 'recipients' | 'droppedRecipients';

export interface CampaignLimits {
  maxCampaigns: number;
  maxRecipients: number;
}

const NO_RECIPIENTS: RecipientList = { length: 0, at: () => undefined, [Symbol.iterator]: () => [][Symbol.iterator]() };

export function createCampaignStore(
  { maxCampaigns, maxRecipients }: CampaignLimits,
  { initial, changed, turns }: KindOptions<CampaignData>,
): RecordKind<CampaignStore, CampaignData, CampaignStats> {
  const dropped = { campaigns: 0, recipients: 0 };
  /** Recipients of every campaign together (kept as they change, for the cap). */
  let recipientTotal = 0;
  const campaigns = new Map<string, Campaign>();
  /** Campaign ids by app and status, for filtered pages. */
  const index = new CampaignIndex();
  const recipientsByCampaign = new Map<string, CampaignRecipients>();
  const uploads = new Map<string, CampaignUpload>();
  /** Campaigns with recipients still to seal, each through its sealer (sealerOf). */
  const unsealed = new SealQueue(Infinity, turns);
  const sealers = new Map<string, Sealable>();

  /**
   * Seals the campaign's recipients, but not while it is sending: the send reads them as
   * they are, and sealing a 100,000-row upload at the same time took the CPU it needed
   * (bench/: campaign). Its status change re-queues it (updateCampaign).
   */
  function sealerOf(campaignId: string): Sealable {
    let sealer = sealers.get(campaignId);
    if (!sealer)
      sealers.set(
        campaignId,
        (sealer = {
          seal: (spent) =>
            campaigns.get(campaignId)?.status === 'sending' ||
            (recipientsByCampaign.get(campaignId)?.seal(spent) ?? true),
        }),
      );
    return sealer;
  }

  function addRecipientsQuietly(campaignId: string, list: readonly Recipient[]): void {
    let entry = recipientsByCampaign.get(campaignId);
    if (!entry) recipientsByCampaign.set(campaignId, (entry = new CampaignRecipients()));
    entry.add(list);
    recipientTotal += list.length;
    unsealed.add(sealerOf(campaignId));
  }

  function removeCampaign(id: string): number {
    const gone = recipientsByCampaign.get(id)?.length ?? 0;
    const campaign = campaigns.get(id);
    if (campaign) index.remove(id, campaign.appId, campaign.status);
    const sealer = sealers.get(id);
    if (sealer) unsealed.delete(sealer);
    sealers.delete(id);
    campaigns.delete(id);
    recipientsByCampaign.delete(id);
    uploads.delete(id);
    recipientTotal -= gone;
    return gone;
  }

  /**
   * Drops the oldest campaigns (with their recipients) while a cap is passed. A campaign
   * sending or scheduled is kept (dropping it would stop work in progress), and so is
   * `keep`, the one being added to.
   */
  function enforceCaps(keep: string): void {
    if (campaigns.size <= maxCampaigns && recipientTotal <= maxRecipients) return;
    for (const c of campaigns.values()) {
      if (campaigns.size <= maxCampaigns && recipientTotal <= maxRecipients) return;
      if (c.id === keep || c.status === 'sending' || c.status === 'scheduled') continue;
      dropped.recipients += removeCampaign(c.id);
      dropped.campaigns++;
    }
  }

  function clear(appId: string | undefined): void {
    if (appId === undefined) {
      campaigns.clear();
      index.clear();
      recipientsByCampaign.clear();
      uploads.clear();
      unsealed.delete();
      sealers.clear();
      recipientTotal = 0;
      return;
    }
    for (const c of [...campaigns.values()]) if (c.appId === appId) removeCampaign(c.id);
  }

  for (const c of initial?.campaigns ?? []) {
    campaigns.set(c.id, c);
    index.add(c.id, c.appId, c.status);
  }
  for (const r of initial?.recipients ?? []) addRecipientsQuietly(r.campaignId, [r]);
  for (const u of initial?.campaignUploads ?? []) if (campaigns.has(u.campaignId)) uploads.set(u.campaignId, u);

  const port: CampaignStore = {
    addCampaign(campaign) {
      campaigns.set(campaign.id, campaign);
      index.add(campaign.id, campaign.appId, campaign.status);
      enforceCaps(campaign.id);
      changed();
    },
    getCampaign: (id) => campaigns.get(id),
    updateCampaign(id, patch) {
      const current = campaigns.get(id);
      if (!current) throw new Error(`updateCampaign: no campaign ${id}`);
      const next = { ...current, ...patch };
      campaigns.set(id, next);
      index.move(id, current.appId, current.status, next.status);
      if (current.status === 'sending' && next.status !== 'sending' && recipientsByCampaign.has(id))
        unsealed.add(sealerOf(id));
      changed();
      return next;
    },
    listCampaigns: (filter) =>
      [...campaigns.values()].filter(
        (c) =>
          (filter.appId === undefined || c.appId === filter.appId) &&
          (filter.status === undefined || c.status === filter.status),
      ),
    queryCampaigns(filter, page) {
      const { total, items } = index.page(filter, page);
      return { total, items: items.map((id) => campaigns.get(id)!) };
    },

    addRecipients(campaignId, list) {
      addRecipientsQuietly(campaignId, list);
      enforceCaps(campaignId);
      changed();
    },
    hasRecipient: (campaignId, userId) => recipientsByCampaign.get(campaignId)?.has(userId) ?? false,
    recipients: (campaignId) => recipientsByCampaign.get(campaignId) ?? NO_RECIPIENTS,
    countRecipients: (campaignId, filter) => recipientsByCampaign.get(campaignId)?.count(filter.status) ?? 0,
    listRecipients: (campaignId, filter, page) =>
      recipientsByCampaign.get(campaignId)?.page(filter.status, page) ?? { total: 0, items: [] },
    pendingRecipients: (campaignId, max) => recipientsByCampaign.get(campaignId)?.pending(max) ?? NO_PENDING,
    updateRecipient(campaignId, recipientId, patch) {
      recipientsByCampaign.get(campaignId)?.update(recipientId, patch);
      changed();
    },
    settleRecipients(campaignId, pending, outcomes) {
      recipientsByCampaign.get(campaignId)?.settle(pending.positions, outcomes);
      changed();
    },
    setLastUpload(upload) {
      if (!campaigns.has(upload.campaignId)) return;
      uploads.set(upload.campaignId, upload);
      changed();
    },
    lastUpload: (campaignId) => uploads.get(campaignId),
  };

  return {
    port,
    clear,
    reset(appId) {
      clear(appId);
      if (appId === undefined) dropped.campaigns = dropped.recipients = 0;
    },
    stats: () => ({
      campaigns: campaigns.size,
      droppedCampaigns: dropped.campaigns,
      recipients: recipientTotal,
      droppedRecipients: dropped.recipients,
    }),
    snapshot: () => ({
      campaigns: [...campaigns.values()],
      recipients: [...recipientsByCampaign.values()].flatMap((e) => [...e]),
      campaignUploads: [...uploads.values()],
    }),
    persistable() {
      const recipientLists = [...recipientsByCampaign.values()].map((e) => e.frozen());
      return {
        campaigns: [...campaigns.values()],
        recipients: {
          *[Symbol.iterator]() {
            for (const list of recipientLists) yield* list;
          },
        },
        campaignUploads: [...uploads.values()],
      };
    },
  };
}
