/**
 * Adding recipients to a draft campaign: by user ID (POST /campaigns/{id}/recipients) or
 * from a CSV upload (docs/reference.md#upload-recipients-csv). Both skip users already on the campaign, and add
 * everything in one store call so a refused upload adds nothing.
 */
import type { Campaign, Recipient, Template } from '../schemas/records.js';
import { assertDraft, findOwnedCampaign } from './campaign-status.js';
import { distinctStrings } from './distinct-strings.js';
import { createRecipientsCsvReader, type CsvRowError, type CsvRowSink } from './csv.js';
import { ApiError } from './errors.js';
import { campaignTemplateGone, uploadStepFailed } from './error-messages.js';
import type { CampaignDeps, Page } from './ports.js';

/** docs/reference.md#upload-recipients-csv: the response lists at most this many row errors. */
export const MAX_REPORTED_ROW_ERRORS = 100;

export interface UploadResult {
  recipientsAdded: number;
  uploaded: number;
  total: number;
  campaignId: string;
  skipped: number;
  errors: CsvRowError[];
}

/** Anything but an ApiError while parsing or storing is the spec's ERR_OPERATION_FAILED. */
function asOperationFailed(step: string, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return uploadStepFailed(step, error);
}

function campaignTemplate(deps: CampaignDeps, campaign: Campaign): Template {
  const template = deps.templates.findById(campaign.appId, campaign.templateId);
  if (!template) throw campaignTemplateGone(campaign);
  return template;
}

/** A new recipient record; its id is given when the whole list is stored. */
function newRecipient(campaign: Campaign, userId: string, variables: Record<string, unknown>, at: string): Recipient {
  return {
    id: '',
    campaignId: campaign.id,
    appId: campaign.appId,
    userId,
    variables,
    status: 'pending',
    failureReason: null,
    deliveryId: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** Merges two row-sorted error lists (file order). */
function mergeByRow(a: CsvRowError[], b: CsvRowError[]): CsvRowError[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const merged: CsvRowError[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length)
    merged.push(
      (a[i] as CsvRowError).row <= (b[j] as CsvRowError).row ? (a[i++] as CsvRowError) : (b[j++] as CsvRowError),
    );
  while (i < a.length) merged.push(a[i++] as CsvRowError);
  while (j < b.length) merged.push(b[j++] as CsvRowError);
  return merged;
}

/** A CSV upload being read: see RecipientService.startUpload. */
export interface UploadSession {
  write(bytes: Uint8Array): void;
  finish(): UploadResult;
}

/** Names the new recipients, stores them in one call, bumps the campaign's count and tells the stream. */
function addAll(deps: CampaignDeps, campaign: Campaign, recipients: Recipient[], at: string): number {
  if (recipients.length > 0) {
    // Ids only for a list that is stored: a refused upload uses none (file order), reserved in one step.
    const ids = deps.ids.objectIds(recipients.length);
    for (let i = 0; i < recipients.length; i++) recipients[i]!.id = ids.at(i);
    deps.store.addRecipients(campaign.id, recipients);
  }
  const total = deps.store.recipients(campaign.id).length;
  const updated = deps.store.updateCampaign(campaign.id, { recipientCount: total, updatedAt: at });
  deps.events.emit({ type: 'campaign', campaign: updated });
  return total;
}

function addRecipients(
  deps: CampaignDeps,
  appId: string,
  campaignId: string,
  userIds: string[],
): { added: number; total: number } {
  const campaign = findOwnedCampaign(deps, appId, campaignId);
  assertDraft(campaign, 'adding recipients');
  const at = deps.clocks.clockFor(appId).nowIso();
  const fresh = distinctStrings(userIds).filter((userId) => !deps.store.hasRecipient(campaign.id, userId));
  const total = addAll(
    deps,
    campaign,
    fresh.map((userId) => newRecipient(campaign, userId, {}, at)),
    at,
  );
  return { added: fresh.length, total };
}

/**
 * Starts reading a CSV upload for a draft campaign: write() the file's bytes as they
 * arrive, then finish(). Rows become recipient records as they are read (no table of the
 * file in between); nothing is stored before the whole file is accepted (docs/reference.md#upload-recipients-csv).
 */
function startUpload(deps: CampaignDeps, appId: string, campaignId: string): UploadSession {
  const campaign = findOwnedCampaign(deps, appId, campaignId);
  assertDraft(campaign, 'a CSV upload');
  const template = campaignTemplate(deps, campaign);
  const at = deps.clocks.clockFor(appId).nowIso();
  // A user already on the campaign, or earlier in the file, skips the row.
  const seen = new Set<string>();
  const storedBefore = deps.store.recipients(campaign.id).length;
  const duplicates: CsvRowError[] = [];
  const fresh: Recipient[] = [];
  const freshRows: number[] = [];
  const addRow: CsvRowSink = (row, userId, variables) => {
    const before = seen.size;
    seen.add(userId);
    if (seen.size === before || (storedBefore > 0 && deps.store.hasRecipient(campaign.id, userId))) {
      duplicates.push({ row, reason: 'duplicate user_id' });
    } else {
      fresh.push(newRecipient(campaign, userId, variables, at));
      freshRows.push(row);
    }
  };
  const reader = createRecipientsCsvReader(template, addRow);
  const parsing = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw asOperationFailed('CSV parsing', error);
    }
  };
  return {
    write: (bytes) => parsing(() => reader.write(bytes)),
    finish() {
      const summary = parsing(() => reader.end());
      // The upload took turns of the event loop: the campaign may have moved on meanwhile.
      const now = findOwnedCampaign(deps, appId, campaignId);
      assertDraft(now, 'a CSV upload');
      let added = fresh;
      if (deps.store.recipients(campaign.id).length !== storedBefore) {
        added = [];
        fresh.forEach((r, i) => {
          if (!deps.store.hasRecipient(campaign.id, r.userId)) added.push(r);
          else duplicates.push({ row: freshRows[i]!, reason: 'duplicate user_id' });
        });
        duplicates.sort((x, y) => x.row - y.row);
      }
      let total: number;
      try {
        total = addAll(deps, campaign, added, at);
      } catch (error) {
        throw asOperationFailed('Recipient creation', error);
      }
      const errors = mergeByRow(summary.errors, duplicates);
      const reported = errors.slice(0, MAX_REPORTED_ROW_ERRORS);
      // Remembered for /__inspect: the web inspector shows which rows were left out and why.
      deps.store.setLastUpload({
        campaignId: campaign.id,
        at,
        uploaded: added.length,
        skipped: errors.length,
        errors: reported,
      });
      return {
        recipientsAdded: added.length,
        uploaded: added.length,
        total,
        campaignId: campaign.id,
        skipped: errors.length,
        errors: reported,
      };
    },
  };
}

function listRecipients(
  deps: CampaignDeps,
  appId: string,
  campaignId: string,
  filter: { status?: string },
  page: Page,
) {
  const campaign = findOwnedCampaign(deps, appId, campaignId);
  return deps.store.listRecipients(campaign.id, filter, page);
}

export function createRecipientService(deps: CampaignDeps) {
  return {
    addRecipients: (appId: string, campaignId: string, userIds: string[]) =>
      addRecipients(deps, appId, campaignId, userIds),
    startUpload: (appId: string, campaignId: string) => startUpload(deps, appId, campaignId),
    list: (appId: string, campaignId: string, filter: { status?: string }, page: Page) =>
      listRecipients(deps, appId, campaignId, filter, page),
  };
}
