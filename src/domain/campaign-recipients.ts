/**
 * Adding recipients to a draft campaign: by user ID (POST /campaigns/{id}/recipients) or
 * from a CSV upload (CONTRACT §5.3). Both skip users already on the campaign, and add
 * everything in one store call so a refused upload adds nothing.
 */
import type { Campaign, Recipient, Template } from '../schemas/records.js';
import { findOwnedCampaign, isoNow, type CampaignDeps } from './campaign-records.js';
import { assertDraft } from './campaign-status.js';
import { parseRecipientsCsv, type CsvRowError, type ParsedRecipientsCsv } from './csv.js';
import { ApiError } from './errors.js';

/** CONTRACT §5.3: the response lists at most this many row errors. */
export const MAX_REPORTED_ROW_ERRORS = 100;

export interface UploadResult {
  recipientsAdded: number;
  uploaded: number;
  total: number;
  campaignId: string;
  skipped: number;
  errors: CsvRowError[];
}

interface NewRecipient {
  userId: string;
  variables: Record<string, unknown>;
}

/** Anything but an ApiError while parsing or storing is the spec's ERR_OPERATION_FAILED. */
function asOperationFailed(step: string, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('ERR_OPERATION_FAILED', `${step} failed: ${(error as Error)?.message ?? String(error)}. Nothing was added; retry the upload.`);
}

function campaignTemplate(deps: CampaignDeps, campaign: Campaign): Template {
  const template = deps.templates.findById(campaign.appId, campaign.templateId);
  if (!template) {
    throw new ApiError('ERR_NOT_FOUND', `Campaign ${campaign.id} uses template ${campaign.templateId}, which no longer exists; its CSV columns cannot be checked.`, {
      message: 'The template was not found.',
      details: { templateId: `template ${campaign.templateId} no longer exists` },
    });
  }
  return template;
}

export function createRecipientService(deps: CampaignDeps) {
  /** Stores the new recipients in one call and bumps the campaign's count. */
  function addAll(campaign: Campaign, items: NewRecipient[]): number {
    const at = isoNow(deps.clock);
    const recipients: Recipient[] = items.map(({ userId, variables }) => ({
      id: deps.ids.objectId(), campaignId: campaign.id, appId: campaign.appId, userId, variables,
      status: 'pending', failureReason: null, deliveryId: null, createdAt: at, updatedAt: at,
    }));
    if (recipients.length > 0) deps.store.addRecipients(campaign.id, recipients);
    const total = deps.store.recipients(campaign.id).length;
    deps.store.updateCampaign(campaign.id, { recipientCount: total, updatedAt: at });
    return total;
  }

  return {
    addRecipients(appId: string, campaignId: string, userIds: string[]): { added: number; total: number } {
      const campaign = findOwnedCampaign(deps, appId, campaignId);
      assertDraft(campaign, 'adding recipients');
      const fresh = [...new Set(userIds)].filter((userId) => !deps.store.hasRecipient(campaign.id, userId));
      const total = addAll(campaign, fresh.map((userId) => ({ userId, variables: {} })));
      return { added: fresh.length, total };
    },

    upload(appId: string, campaignId: string, file: Uint8Array): UploadResult {
      const campaign = findOwnedCampaign(deps, appId, campaignId);
      assertDraft(campaign, 'a CSV upload');
      const template = campaignTemplate(deps, campaign);
      let parsed: ParsedRecipientsCsv;
      try {
        parsed = parseRecipientsCsv(file, template);
      } catch (error) {
        throw asOperationFailed('CSV parsing', error);
      }
      // CONTRACT §5.3: a user already on the campaign, or earlier in the file, skips the row.
      const seen = new Set<string>();
      const errors = [...parsed.errors];
      const fresh: NewRecipient[] = [];
      for (const row of parsed.rows) {
        if (seen.has(row.userId) || deps.store.hasRecipient(campaign.id, row.userId)) {
          errors.push({ row: row.row, reason: 'duplicate user_id' });
        } else {
          seen.add(row.userId);
          fresh.push(row);
        }
      }
      let total: number;
      try {
        total = addAll(campaign, fresh);
      } catch (error) {
        throw asOperationFailed('Recipient creation', error);
      }
      errors.sort((a, b) => a.row - b.row);
      return {
        recipientsAdded: fresh.length, uploaded: fresh.length, total, campaignId: campaign.id,
        skipped: errors.length, errors: errors.slice(0, MAX_REPORTED_ROW_ERRORS),
      };
    },

    list(appId: string, campaignId: string, filter: { status?: string }, page: { page: number; limit: number }) {
      const campaign = findOwnedCampaign(deps, appId, campaignId);
      return deps.store.listRecipients(campaign.id, filter, { offset: (page.page - 1) * page.limit, limit: page.limit });
    },
  };
}

export type RecipientService = ReturnType<typeof createRecipientService>;
