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
import { SealQueue, type Sealable } from '../common/seal-queue.js';
import type { KindOptions, RecordKind } from '../store-data.js';

type CampaignData = 'campaigns' | 'recipients' | 'campaignUploads';
type CampaignStats = 'campaigns' | 'droppedCampaigns' | 'recipients' | 'droppedRecipients';

export interface CampaignLimits {
  maxCampaigns: number;
  maxRecipients: number;
}

const NO_RECIPIENTS: RecipientList = { length: 0, at: () => undefined, [Symbol.iterator]: () => [][Symbol.iterator]() };

/** The kind's records and indexes, shared by the functions below. */
interface CampaignState {
  readonly limits: CampaignLimits;
  readonly dropped: { campaigns: number; recipients: number };
  /** Recipients of every campaign together (kept as they change, for the cap). */
  recipientTotal: number;
  readonly campaigns: Map<string, Campaign>;
  /** Campaign ids by app and status, for filtered pages. */
  readonly index: CampaignIndex;
  readonly recipientsByCampaign: Map<string, CampaignRecipients>;
  readonly uploads: Map<string, CampaignUpload>;
  /** Campaigns with recipients still to seal, each through its sealer (sealerOf). */
  readonly unsealed: SealQueue;
  readonly sealers: Map<string, Sealable>;
}

export function createCampaignStore(
  limits: CampaignLimits,
  { initial, changed, turns }: KindOptions<CampaignData>,
): RecordKind<CampaignStore, CampaignData, CampaignStats> {
  const state: CampaignState = {
    limits,
    dropped: { campaigns: 0, recipients: 0 },
    recipientTotal: 0,
    campaigns: new Map(),
    index: new CampaignIndex(),
    recipientsByCampaign: new Map(),
    uploads: new Map(),
    unsealed: new SealQueue(Infinity, turns),
    sealers: new Map(),
  };
  for (const c of initial?.campaigns ?? []) {
    state.campaigns.set(c.id, c);
    state.index.add(c.id, c.appId, c.status);
  }
  for (const r of initial?.recipients ?? []) addRecipientsQuietly(state, r.campaignId, [r]);
  for (const u of initial?.campaignUploads ?? [])
    if (state.campaigns.has(u.campaignId)) state.uploads.set(u.campaignId, u);
  return {
    port: { ...campaignPort(state, changed), ...recipientPort(state, changed) },
    clear: (appId) => clear(state, appId),
    reset(appId) {
      clear(state, appId);
      if (appId === undefined) state.dropped.campaigns = state.dropped.recipients = 0;
    },
    stats: () => ({
      campaigns: state.campaigns.size,
      droppedCampaigns: state.dropped.campaigns,
      recipients: state.recipientTotal,
      droppedRecipients: state.dropped.recipients,
    }),
    snapshot: () => ({
      campaigns: [...state.campaigns.values()],
      recipients: [...state.recipientsByCampaign.values()].flatMap((e) => [...e]),
      campaignUploads: [...state.uploads.values()],
    }),
    persistable: () => persistable(state),
  };
}

/** The port's campaign methods (and the last upload, which lives and dies with its campaign). */
function campaignPort(
  state: CampaignState,
  changed: () => void,
): Omit<CampaignStore, keyof ReturnType<typeof recipientPort>> {
  const { campaigns, index, uploads } = state;
  return {
    addCampaign(campaign) {
      campaigns.set(campaign.id, campaign);
      index.add(campaign.id, campaign.appId, campaign.status);
      enforceCaps(state, campaign.id);
      changed();
    },
    getCampaign: (id) => campaigns.get(id),
    updateCampaign(id, patch) {
      const current = campaigns.get(id);
      if (!current) throw new Error(`updateCampaign: no campaign ${id}`);
      const next = { ...current, ...patch };
      campaigns.set(id, next);
      index.move(id, current.appId, current.status, next.status);
      if (current.status === 'sending' && next.status !== 'sending' && state.recipientsByCampaign.has(id))
        state.unsealed.add(sealerOf(state, id));
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
    setLastUpload(upload) {
      if (!campaigns.has(upload.campaignId)) return;
      uploads.set(upload.campaignId, upload);
      changed();
    },
    lastUpload: (campaignId) => uploads.get(campaignId),
  };
}

/** The port's recipient methods: each campaign's list answers for itself. */
function recipientPort(state: CampaignState, changed: () => void) {
  const listOf = (campaignId: string) => state.recipientsByCampaign.get(campaignId);
  return {
    addRecipients(campaignId, list) {
      addRecipientsQuietly(state, campaignId, list);
      enforceCaps(state, campaignId);
      changed();
    },
    hasRecipient: (campaignId, userId) => listOf(campaignId)?.has(userId) ?? false,
    recipients: (campaignId) => listOf(campaignId) ?? NO_RECIPIENTS,
    countRecipients: (campaignId, filter) => listOf(campaignId)?.count(filter.status) ?? 0,
    listRecipients: (campaignId, filter, page) =>
      listOf(campaignId)?.page(filter.status, page) ?? { total: 0, items: [] },
    pendingRecipients: (campaignId, max) => listOf(campaignId)?.pending(max) ?? NO_PENDING,
    updateRecipient(campaignId, recipientId, patch) {
      listOf(campaignId)?.update(recipientId, patch);
      changed();
    },
    settleRecipients(campaignId, pending, outcomes) {
      listOf(campaignId)?.settle(pending.positions, outcomes);
      changed();
    },
  } satisfies Partial<CampaignStore>;
}

/**
 * Seals the campaign's recipients, but not while it is sending: the send reads them as
 * they are, and sealing a 100,000-row upload at the same time took the CPU it needed
 * (bench/: campaign). Its status change re-queues it (updateCampaign).
 */
function sealerOf(state: CampaignState, campaignId: string): Sealable {
  let sealer = state.sealers.get(campaignId);
  if (!sealer)
    state.sealers.set(
      campaignId,
      (sealer = {
        seal: (spent) =>
          state.campaigns.get(campaignId)?.status === 'sending' ||
          (state.recipientsByCampaign.get(campaignId)?.seal(spent) ?? true),
      }),
    );
  return sealer;
}

function addRecipientsQuietly(state: CampaignState, campaignId: string, list: readonly Recipient[]): void {
  let entry = state.recipientsByCampaign.get(campaignId);
  if (!entry) state.recipientsByCampaign.set(campaignId, (entry = new CampaignRecipients()));
  entry.add(list);
  state.recipientTotal += list.length;
  state.unsealed.add(sealerOf(state, campaignId));
}

/** Removes a campaign with its recipients and upload; how many recipients went with it. */
function removeCampaign(state: CampaignState, id: string): number {
  const gone = state.recipientsByCampaign.get(id)?.length ?? 0;
  const campaign = state.campaigns.get(id);
  if (campaign) state.index.remove(id, campaign.appId, campaign.status);
  const sealer = state.sealers.get(id);
  if (sealer) state.unsealed.delete(sealer);
  state.sealers.delete(id);
  state.campaigns.delete(id);
  state.recipientsByCampaign.delete(id);
  state.uploads.delete(id);
  state.recipientTotal -= gone;
  return gone;
}

/**
 * Drops the oldest campaigns (with their recipients) while a cap is passed. A campaign
 * sending or scheduled is kept (dropping it would stop work in progress), and so is
 * `keep`, the one being added to.
 */
function enforceCaps(state: CampaignState, keep: string): void {
  const { campaigns, limits } = state;
  const within = () => campaigns.size <= limits.maxCampaigns && state.recipientTotal <= limits.maxRecipients;
  if (within()) return;
  for (const c of campaigns.values()) {
    if (within()) return;
    if (c.id === keep || c.status === 'sending' || c.status === 'scheduled') continue;
    state.dropped.recipients += removeCampaign(state, c.id);
    state.dropped.campaigns++;
  }
}

function clear(state: CampaignState, appId: string | undefined): void {
  if (appId === undefined) {
    state.campaigns.clear();
    state.index.clear();
    state.recipientsByCampaign.clear();
    state.uploads.clear();
    state.unsealed.delete();
    state.sealers.clear();
    state.recipientTotal = 0;
    return;
  }
  for (const c of [...state.campaigns.values()]) if (c.appId === appId) removeCampaign(state, c.id);
}

/** The records without copying them: recipient lists frozen as they are now. */
function persistable(state: CampaignState) {
  const recipientLists = [...state.recipientsByCampaign.values()].map((e) => e.frozen());
  return {
    campaigns: [...state.campaigns.values()],
    recipients: {
      *[Symbol.iterator]() {
        for (const list of recipientLists) yield* list;
      },
    },
    campaignUploads: [...state.uploads.values()],
  };
}
