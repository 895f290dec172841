/**
 * The CampaignStore port (src/domain/ports/campaigns.ts): campaigns and their recipients.
 * Part of the store contract (storeContract in ../store-contract.ts), run against every store.
 */
import { describe, expect, it } from 'vitest';
import type { CampaignStore, StoreLifecycle } from '../../../src/domain/ports.js';
import { ALL, campaign, ids, recipient, type MakeStore } from './records.js';

export function campaignContract(make: MakeStore<CampaignStore & Pick<StoreLifecycle, 'stats'>>): void {
  describe('campaigns', () => {
    it('inserts, updates and lists campaigns by app and status', async () => {
      const store = await make();
      store.addCampaign(campaign('c1'));
      store.addCampaign(campaign('c2', { appId: 'app-b', status: 'scheduled' }));
      const updated = store.updateCampaign('c1', { status: 'sent', sentCount: 2 });
      expect(updated).toMatchObject({ id: 'c1', status: 'sent', sentCount: 2, name: 'Campaign c1' });
      expect(store.getCampaign('c1')?.status).toBe('sent');
      expect(store.getCampaign('missing')).toBeUndefined();
      expect(ids(store.listCampaigns({}))).toEqual(['c1', 'c2']);
      expect(ids(store.listCampaigns({ appId: 'app-b' }))).toEqual(['c2']);
      expect(ids(store.listCampaigns({ status: 'sent' }))).toEqual(['c1']);
      expect(() => store.updateCampaign('missing', {})).toThrow(/missing/);
    });

    it('keeps recipients per campaign, finds them by user and updates them', async () => {
      const store = await make();
      store.addCampaign(campaign('c1'));
      store.addRecipients('c1', [recipient('c1', 1), recipient('c1', 2)]);
      store.addRecipients('c2', [recipient('c2', 1)]);
      expect(store.hasRecipient('c1', 'user-2')).toBe(true);
      expect(store.hasRecipient('c1', 'user-9')).toBe(false);
      expect(store.hasRecipient('nope', 'user-1')).toBe(false);
      store.updateRecipient('c1', 'c1-r2', { status: 'sent', deliveryId: 'd1' });
      expect(ids([...store.recipients('c1')])).toEqual(['c1-r1', 'c1-r2']);
      expect(store.listRecipients('c1', { status: 'sent' }, ALL)).toMatchObject({
        total: 1,
        items: [{ id: 'c1-r2', deliveryId: 'd1' }],
      });
      expect(store.listRecipients('c1', {}, { offset: 1, limit: 5 })).toMatchObject({
        total: 2,
        items: [{ id: 'c1-r2' }],
      });
      expect(store.listRecipients('nope', {}, ALL)).toEqual({ total: 0, items: [] });
      expect(store.stats().recipients).toBe(3);
    });

    it('knows every recipient added, before and after its user index is first used', async () => {
      const store = await make();
      store.addCampaign(campaign('c1'));
      const first = [recipient('c1', 1), recipient('c1', 2)];
      store.addRecipients('c1', first);
      first.pop(); // the store keeps its own list, not the caller's array
      expect(ids([...store.recipients('c1')])).toEqual(['c1-r1', 'c1-r2']);
      expect(store.hasRecipient('c1', 'user-2')).toBe(true);
      store.addRecipients('c1', [recipient('c1', 3)]);
      expect(store.hasRecipient('c1', 'user-3')).toBe(true);
      expect(store.hasRecipient('c1', 'user-4')).toBe(false);
      expect(ids([...store.recipients('c1')])).toEqual(['c1-r1', 'c1-r2', 'c1-r3']);
    });
  });
}
