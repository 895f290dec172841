/**
 * Campaigns and their recipients as /__inspect reads them: every answer kept until the records
 * or the template catalog change (a campaign's view names its template).
 */
import type { CampaignService } from '../domain/campaigns.js';
import type { CampaignFilter, Page, RecipientFilter } from '../domain/ports.js';
import type { ReadRoom } from './read-room.js';

export function campaignReads(room: ReadRoom, { inspect }: { inspect: CampaignService['inspect'] }) {
  return {
    page: (filter: CampaignFilter, page: Page) =>
      room.kept('campaigns', [filter, page], () => inspect.list(filter, page)),
    /** `appId`: only that app's campaign. */
    get: (id: string, appId?: string) => room.kept('campaign', [id, appId], () => inspect.get(id, appId)),
    recipients: (id: string, filter: RecipientFilter, page: Page, appId?: string) =>
      room.kept('recipients', [id, filter, page, appId], () => inspect.recipients(id, filter, page, appId)),
  };
}
