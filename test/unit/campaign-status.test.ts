import { describe, expect, it } from 'vitest';
import {
  assertDraft,
  assertCampaignStatusChange,
  canTransition,
  CAMPAIGN_TRANSITIONS,
  RECIPIENT_TRANSITIONS,
} from '../../src/domain/campaign-status.js';
import { ApiError } from '../../src/domain/errors.js';
import { CAMPAIGN_STATUSES, RECIPIENT_STATUSES } from '../../src/schemas/records.js';

function thrown(fn: () => void): ApiError {
  try {
    fn();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a throw');
}

const ALLOWED_CAMPAIGN = new Set([
  'draft>scheduled',
  'draft>sending',
  'scheduled>sending',
  'sending>sent',
  'sending>failed',
]);
const ALLOWED_RECIPIENT = new Set(['pending>sent', 'pending>failed']);

describe('campaign status machine', () => {
  for (const from of CAMPAIGN_STATUSES) {
    for (const to of CAMPAIGN_STATUSES) {
      const allowed = ALLOWED_CAMPAIGN.has(`${from}>${to}`);
      it(`${allowed ? 'allows' : 'refuses with 400 ERR_BAD_REQUEST'} campaign ${from} → ${to}`, () => {
        expect(canTransition('campaign', from, to)).toBe(allowed);
        if (allowed) {
          expect(() => assertCampaignStatusChange('campaign', from, to)).not.toThrow();
        } else {
          const error = thrown(() => assertCampaignStatusChange('campaign', from, to));
          expect(error).toBeInstanceOf(ApiError);
          expect(error).toMatchObject({ code: 'ERR_BAD_REQUEST', status: 400, details: { status: `is "${from}"` } });
          expect((error as ApiError).devMessage).toContain(`"${from}" cannot become "${to}"`);
        }
      });
    }
  }

  it('refuses a status the table does not know (a record from elsewhere) instead of throwing a TypeError', () => {
    const unknown = 'archived' as (typeof CAMPAIGN_STATUSES)[number];
    expect(canTransition('campaign', unknown, 'sent')).toBe(false);
    expect(thrown(() => assertCampaignStatusChange('campaign', unknown, 'sent'))).toMatchObject({
      devMessage:
        'A campaign in status "archived" cannot become "sent"; from "archived" it can become: nothing (final state).',
    });
  });

  it('has final states sent and failed with no way out', () => {
    expect(CAMPAIGN_TRANSITIONS.sent).toEqual([]);
    expect(CAMPAIGN_TRANSITIONS.failed).toEqual([]);
  });
});

describe('recipient status machine', () => {
  for (const from of RECIPIENT_STATUSES) {
    for (const to of RECIPIENT_STATUSES) {
      const allowed = ALLOWED_RECIPIENT.has(`${from}>${to}`);
      it(`${allowed ? 'allows' : 'refuses'} recipient ${from} → ${to}`, () => {
        expect(canTransition('recipient', from, to)).toBe(allowed);
        if (allowed) expect(() => assertCampaignStatusChange('recipient', from, to)).not.toThrow();
        else
          expect(thrown(() => assertCampaignStatusChange('recipient', from, to))).toMatchObject({
            code: 'ERR_BAD_REQUEST',
            devMessage: expect.stringContaining(`A recipient in status "${from}"`),
          });
      });
    }
  }

  it('delivers a recipient once: sent and failed are final', () => {
    expect(RECIPIENT_TRANSITIONS.sent).toEqual([]);
    expect(RECIPIENT_TRANSITIONS.failed).toEqual([]);
  });
});

describe('assertDraft', () => {
  it('accepts a draft campaign', () => {
    expect(() => assertDraft({ id: 'c1', status: 'draft' }, 'an update')).not.toThrow();
  });
  for (const status of CAMPAIGN_STATUSES.filter((s) => s !== 'draft')) {
    it(`refuses a ${status} campaign with 400 naming the operation`, () => {
      expect(thrown(() => assertDraft({ id: 'c1', status }, 'an update'))).toMatchObject({
        code: 'ERR_BAD_REQUEST',
        details: { status: `is "${status}", must be "draft"` },
        devMessage: expect.stringContaining('an update needs a campaign in "draft"'),
      });
    });
  }
});

describe('what a refused transition says', () => {
  it('names both states and where the first can go, or that it is final', () => {
    expect(thrown(() => assertCampaignStatusChange('campaign', 'draft', 'sent'))).toMatchObject({
      message: 'The campaign is not in a state that allows this operation.',
      devMessage: 'A campaign in status "draft" cannot become "sent"; from "draft" it can become: scheduled, sending.',
      details: { status: 'is "draft"' },
    });
    expect(thrown(() => assertCampaignStatusChange('campaign', 'sent', 'sending'))).toMatchObject({
      devMessage:
        'A campaign in status "sent" cannot become "sending"; from "sent" it can become: nothing (final state).',
    });
    expect(thrown(() => assertCampaignStatusChange('recipient', 'failed', 'sent'))).toMatchObject({
      message: 'The recipient is not in a state that allows this operation.',
      devMessage:
        'A recipient in status "failed" cannot become "sent"; from "failed" it can become: nothing (final state).',
      details: { status: 'is "failed"' },
    });
  });

  it('says which campaign a draft-only operation was refused on, and why', () => {
    expect(thrown(() => assertDraft({ id: 'c7', status: 'scheduled' }, 'adding recipients'))).toMatchObject({
      code: 'ERR_BAD_REQUEST',
      message: 'The request is invalid.',
      devMessage: 'Campaign c7 is "scheduled"; adding recipients needs a campaign in "draft" status.',
      details: { status: 'is "scheduled", must be "draft"' },
    });
  });
});
