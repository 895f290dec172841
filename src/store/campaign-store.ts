/**
 * Campaigns and their recipients in memory: the CampaignStore port. One kind because the
 * retention caps drop a campaign with its recipients; the recipients' indexes are built on
 * first use, so an upload's one step that cannot yield only copies its list.
 */
import type { Campaign, CampaignUpload, Recipient } from '../schemas/records.js';
import type { CampaignStore } from '../domain/ports.js';
import { paginate } from '../domain/record-filters.js';
import { CampaignIndex } from './campaign-index.js';
import type { KindOptions, RecordKind } from './store-data.js';

type CampaignData = 'campaigns' | 'recipients' | 'campaignUploads';
type CampaignStats = 'campaigns' | 'droppedCampaigns' | 'recipients' | 'droppedRecipients';

export interface CampaignLimits {
  maxCampaigns: number;
  maxRecipients: number;
}

interface CampaignRecipients {
  list: Recipient[];
  /** The users on the list, built on the first hasRecipient: an upload of 100,000 rows stores them without
   * 100,000 set insertions in the one step that cannot yield (bench/: longest stall). */
  userIds: Set<string> | null;
  /** id → position in list, built on the first lookup the in-order guess misses: uploads skip it. */
  byId: Map<string, number> | null;
  /** Where the next lookup by id guesses first: a campaign send updates recipients in list order. */
  next: number;
}

export function createCampaignStore(
  { maxCampaigns, maxRecipients }: CampaignLimits,
  { initial, changed }: KindOptions<CampaignData>,
): RecordKind<CampaignStore, CampaignData, CampaignStats> {
  const dropped = { campaigns: 0, recipients: 0 };
  /** Recipients of every campaign together (kept as they change, for the cap). */
  let recipientTotal = 0;
  const campaigns = new Map<string, Campaign>();
  /** Campaign ids by app and status, for filtered pages. */
  const index = new CampaignIndex();
  const recipientsByCampaign = new Map<string, CampaignRecipients>();
  const uploads = new Map<string, CampaignUpload>();

  function recipientsOf(campaignId: string): CampaignRecipients {
    let entry = recipientsByCampaign.get(campaignId);
    if (!entry) recipientsByCampaign.set(campaignId, (entry = { list: [], userIds: null, byId: null, next: 0 }));
    return entry;
  }

  /** A copy of the list into an empty campaign (a 100,000-row upload: bench/), its indexes left to be built
   * on first use; else one push per recipient, with the indexes already built kept up to date. */
  function addRecipientsQuietly(campaignId: string, list: Recipient[]): void {
    const entry = recipientsOf(campaignId);
    recipientTotal += list.length;
    if (entry.list.length === 0) {
      entry.list = list.slice();
      entry.userIds = entry.byId = null;
      entry.next = 0;
      return;
    }
    const { byId, userIds } = entry;
    for (const r of list) {
      if (byId !== null) byId.set(r.id, entry.list.length);
      entry.list.push(r);
      userIds?.add(r.userId);
    }
  }

  function removeCampaign(id: string): number {
    const gone = recipientsByCampaign.get(id)?.list.length ?? 0;
    const campaign = campaigns.get(id);
    if (campaign) index.remove(id, campaign.appId, campaign.status);
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

  /** Where recipient `id` is in the list, or -1. */
  function recipientPosition(entry: CampaignRecipients, id: string): number {
    let position = entry.next;
    if (entry.list[position]?.id !== id) {
      if (entry.byId === null) {
        const byId = new Map<string, number>();
        entry.list.forEach((r, i) => byId.set(r.id, i));
        entry.byId = byId;
      }
      position = entry.byId.get(id) ?? -1;
      if (position < 0) return -1;
    }
    entry.next = position + 1;
    return position;
  }

  function clear(appId: string | undefined): void {
    if (appId === undefined) {
      campaigns.clear();
      index.clear();
      recipientsByCampaign.clear();
      uploads.clear();
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
    hasRecipient(campaignId, userId) {
      const entry = recipientsByCampaign.get(campaignId);
      if (!entry) return false;
      entry.userIds ??= new Set(entry.list.map((r) => r.userId));
      return entry.userIds.has(userId);
    },
    recipients: (campaignId) => recipientsByCampaign.get(campaignId)?.list ?? [],
    listRecipients(campaignId, filter, page) {
      const list = recipientsByCampaign.get(campaignId)?.list ?? [];
      return paginate(list, filter.status === undefined ? null : (r) => r.status === filter.status, page);
    },
    updateRecipient(campaignId, recipientId, patch) {
      const entry = recipientsByCampaign.get(campaignId);
      const position = entry ? recipientPosition(entry, recipientId) : -1;
      // A new record, not the old one changed: a data file write under way holds the old
      // ones (persistable), and must not show a recipient sent without its delivery.
      if (entry && position >= 0) entry.list[position] = { ...entry.list[position]!, ...patch };
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
      recipients: [...recipientsByCampaign.values()].flatMap((e) => e.list),
      campaignUploads: [...uploads.values()],
    }),
    persistable() {
      const recipientLists = [...recipientsByCampaign.values()].map((e) => e.list.slice());
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
