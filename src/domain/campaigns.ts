/**
 * The campaign service (docs/reference.md#campaigns): create, read, update, send now or schedule,
 * plus the read-only views /__inspect uses. Scheduling goes through the injected clock;
 * delivery through the background runner.
 */
import type { CreateCampaignBody, SendCampaignBody, UpdateCampaignBody } from '../schemas/campaigns.js';
import type { Campaign, CampaignUpload } from '../schemas/records.js';
import { createCampaignRunner } from './campaign-runner.js';
import { createRecipientService } from './campaign-recipients.js';
import { assertDraft, changeCampaignStatus, findOwnedCampaign } from './campaign-status.js';
import { badRequest, notFound } from './errors.js';
import { templateNotFound } from './error-messages.js';
import { assertApproved } from './notifications.js';
import type { CampaignDeps, DeliveryFaultPolicy, ListResult, Page } from './ports.js';

/** List/get answer: the record plus the real service's enrichment (docs/fidelity.md#campaigns). */
export type CampaignView = Campaign & { templateName: string | null; channelTypes: string[] };

/** What /__inspect answers: the view, and the campaign's last accepted CSV upload (docs/reference.md#inspect). */
export type InspectCampaignView = CampaignView & { templateKey: string | null; lastUpload: CampaignUpload | null };

/** Any app's campaign, or (with `appId`) only that app's: another app's is not found. */
function findCampaign(deps: Pick<CampaignDeps, 'store'>, id: string, appId: string | undefined): Campaign {
  const campaign = deps.store.getCampaign(id);
  if (!campaign) throw notFound('campaign', id, { inAnyApp: true });
  if (appId !== undefined && campaign.appId !== appId) throw notFound('campaign', id, { hint: `(app "${appId}")` });
  return campaign;
}

function toCampaignView(deps: Pick<CampaignDeps, 'templates'>, campaign: Campaign): CampaignView {
  const template = deps.templates.findById(campaign.appId, campaign.templateId);
  return { ...campaign, templateName: template?.name ?? null, channelTypes: template?.channels ?? [] };
}

export interface SendCampaignResult {
  id: string;
  status: Campaign['status'];
  scheduledAt: string | null;
  updatedAt: string;
}

/** What the service's functions share: its dependencies, the runner and the start timers of scheduled campaigns. */
interface Scheduling {
  deps: CampaignDeps;
  runner: ReturnType<typeof createCampaignRunner>;
  timers: Map<string, () => void>;
}

/** Cancels the start timers of scheduled campaigns (of one app when given): nothing of theirs is delivered. */
function cancelScheduled({ deps, timers }: Scheduling, appId?: string): void {
  for (const [id, cancel] of [...timers]) {
    if (appId !== undefined && deps.store.getCampaign(id)?.appId !== appId) continue;
    cancel();
    timers.delete(id);
  }
}

/** Starts the campaign when the clock reaches scheduledAt (a real timer, or a manual advance). */
function arm({ deps, runner, timers }: Scheduling, campaign: Campaign, faults: DeliveryFaultPolicy): void {
  timers.get(campaign.id)?.();
  const cancel = deps.clocks.clockFor(campaign.appId).schedule(Date.parse(campaign.scheduledAt ?? ''), () => {
    timers.delete(campaign.id);
    const current = deps.store.getCampaign(campaign.id);
    if (current?.status === 'scheduled') runner.start(current, faults);
  });
  timers.set(campaign.id, cancel);
}

function startLater({ deps, runner }: Scheduling, id: string, faults: DeliveryFaultPolicy): void {
  deps.runtime.defer(() => {
    const current = deps.store.getCampaign(id);
    if (current?.status === 'scheduled') runner.start(current, faults);
  });
}

function assertSendable(deps: CampaignDeps, campaign: Campaign): void {
  assertDraft(campaign, 'sending');
  const template = deps.templates.findById(campaign.appId, campaign.templateId);
  if (!template) throw templateNotFound(campaign.templateId, deps.templates.origin);
  assertApproved(template);
  if (deps.store.recipients(campaign.id).length === 0) {
    throw badRequest(
      `Campaign ${campaign.id} has no recipients; add some with POST /api/campaigns/${campaign.id}/recipients or ` +
        `a CSV upload first.`,
      {
        recipientCount: 'must be at least 1',
      },
    );
  }
}

const inspectView = (deps: CampaignDeps, campaign: Campaign): InspectCampaignView => ({
  ...toCampaignView(deps, campaign),
  templateKey: deps.templates.findById(campaign.appId, campaign.templateId)?.key ?? null,
  lastUpload: deps.store.lastUpload(campaign.id) ?? null,
});

function createCampaign(deps: CampaignDeps, appId: string, body: CreateCampaignBody): Campaign {
  const template = deps.templates.find(appId, body.templateId);
  if (!template)
    throw templateNotFound(
      body.templateId,
      deps.templates.origin,
      deps.templates.list(appId).map((t) => t.key),
    );
  assertApproved(template);
  const at = deps.clocks.clockFor(appId).nowIso();
  const campaign: Campaign = {
    id: deps.ids.objectId(),
    appId,
    name: body.name,
    templateId: template.id,
    status: 'draft',
    deliveryMode: body.deliveryMode,
    tag: body.tag ?? null,
    scheduledAt: null,
    recipientCount: 0,
    sentCount: 0,
    failedCount: 0,
    createdAt: at,
    updatedAt: at,
    startedAt: null,
    completedAt: null,
  };
  deps.store.addCampaign(campaign);
  deps.events.emit({ type: 'campaign', campaign });
  return campaign;
}

function updateCampaign(deps: CampaignDeps, appId: string, id: string, body: UpdateCampaignBody): Campaign {
  const campaign = findOwnedCampaign(deps, appId, id);
  assertDraft(campaign, 'an update');
  const patch: Partial<Campaign> = { updatedAt: deps.clocks.clockFor(appId).nowIso() };
  if (body.name !== undefined) patch.name = body.name;
  if (body.tag !== undefined) patch.tag = body.tag;
  if (body.deliveryMode !== undefined) patch.deliveryMode = body.deliveryMode;
  const updated = deps.store.updateCampaign(id, patch);
  deps.events.emit({ type: 'campaign', campaign: updated });
  return updated;
}

function sendCampaign(
  s: Scheduling,
  appId: string,
  id: string,
  body: SendCampaignBody,
  faults: DeliveryFaultPolicy,
): SendCampaignResult {
  const { deps, runner } = s;
  const campaign = findOwnedCampaign(deps, appId, id);
  assertSendable(deps, campaign);
  let next: Campaign;
  if (body.scheduledAt == null) {
    next = runner.start(campaign, faults);
  } else {
    // The schema takes four-digit years and real days only, so every scheduledAt is an instant a Date holds.
    const at = Date.parse(body.scheduledAt);
    const clock = deps.clocks.clockFor(appId);
    if (at <= clock.now()) {
      throw badRequest(
        `scheduledAt ${body.scheduledAt} is not in the future (emulator clock: ${clock.nowIso()}); omit ` +
          `it to send now.`,
        {
          scheduledAt: 'must be in the future',
        },
      );
    }
    // The fault policy is captured now; it reads the active scenarios when the campaign starts.
    next = changeCampaignStatus(deps, campaign, 'scheduled', { scheduledAt: new Date(at).toISOString() });
    arm(s, next, faults);
  }
  return { id: next.id, status: next.status, scheduledAt: next.scheduledAt, updatedAt: next.updatedAt };
}

/** On start (data file reloaded): re-arm scheduled campaigns and resume sending ones. */
function restoreCampaigns(s: Scheduling, faults: DeliveryFaultPolicy): void {
  const { deps, runner } = s;
  for (const campaign of deps.store.listCampaigns({})) {
    if (campaign.status === 'sending') runner.resume(campaign, faults);
    // arm() fires a past-due time at once on a real clock; a manual clock would wait for the next move.
    if (
      campaign.status === 'scheduled' &&
      Date.parse(campaign.scheduledAt ?? '') <= deps.clocks.clockFor(campaign.appId).now()
    )
      startLater(s, campaign.id, faults);
    else if (campaign.status === 'scheduled') arm(s, campaign, faults);
  }
}

/** The read-only views /__inspect uses: any app's campaigns, or one app's when given. */
function inspectCampaigns(deps: CampaignDeps) {
  return {
    list(filter: { appId?: string; status?: string }, page: Page): ListResult<InspectCampaignView> {
      const { total, items } = deps.store.queryCampaigns(filter, page);
      return { total, items: items.map((campaign) => inspectView(deps, campaign)) };
    },
    get: (id: string, appId?: string): InspectCampaignView => inspectView(deps, findCampaign(deps, id, appId)),
    recipients(id: string, filter: { status?: string }, page: Page, appId?: string) {
      return deps.store.listRecipients(findCampaign(deps, id, appId).id, filter, page);
    },
  };
}

export function createCampaignService(deps: CampaignDeps) {
  const s: Scheduling = { deps, runner: createCampaignRunner(deps), timers: new Map() };
  const recipients = createRecipientService(deps);
  return {
    create: (appId: string, body: CreateCampaignBody): Campaign => createCampaign(deps, appId, body),
    get: (appId: string, id: string): CampaignView => toCampaignView(deps, findOwnedCampaign(deps, appId, id)),
    list(appId: string, filter: { status?: string }, page: Page): ListResult<CampaignView> {
      const { total, items } = deps.store.queryCampaigns({ appId, status: filter.status }, page);
      return { total, items: items.map((c) => toCampaignView(deps, c)) };
    },
    update: (appId: string, id: string, body: UpdateCampaignBody): Campaign => updateCampaign(deps, appId, id, body),
    send: (appId: string, id: string, body: SendCampaignBody, faults: DeliveryFaultPolicy): SendCampaignResult =>
      sendCampaign(s, appId, id, body, faults),
    addRecipients: recipients.addRecipients,
    startUpload: recipients.startUpload,
    listRecipients: recipients.list,
    /** On start (data file reloaded): re-arm scheduled campaigns and resume sending ones. */
    restore: (faults: DeliveryFaultPolicy): void => restoreCampaigns(s, faults),
    inspect: inspectCampaigns(deps),
    /** Cancels the start timers of scheduled campaigns (of one app when given): nothing of theirs is delivered. */
    cancelScheduled: (appId?: string): void => cancelScheduled(s, appId),
    /**
     * Scheduled starts and running sends (of one app when given) stop: the state they belong
     * to is being replaced (an imported trace), and restore() picks up the new one's.
     */
    stopAll(appId?: string): void {
      cancelScheduled(s, appId);
      s.runner.halt(appId);
    },
    close(): void {
      for (const cancel of s.timers.values()) cancel();
      s.timers.clear();
      s.runner.close();
    },
  };
}

export type CampaignService = ReturnType<typeof createCampaignService>;
