/**
 * Shared steps of the campaign tests: create a campaign, build a CSV upload, wait for a
 * campaign to reach a status.
 */
import { expect } from 'vitest';
import type { EmulatorApp, Campaign } from '../../src/index.js';
import { call, type CallOptions } from './app.js';

export const ORDER_TEMPLATE_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
export const CTA_CELL = '"{""type"":""web"",""data"":""https://shop.example/track""}"';

export async function createCampaign(
  app: EmulatorApp,
  body: Record<string, unknown> = {},
  options?: CallOptions,
): Promise<Campaign> {
  const res = await call<Campaign>(
    app,
    'POST',
    '/api/campaigns',
    { name: 'Spring sale', templateId: 'order-confirmation', deliveryMode: 'batch', ...body },
    options,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export function uploadForm(csv: string | null, campaignId: string | null): FormData {
  const form = new FormData();
  if (csv !== null) form.append('file', new Blob([csv], { type: 'text/csv' }), 'recipients.csv');
  if (campaignId !== null) form.append('campaignId', campaignId);
  return form;
}

/** The answer of a CSV upload (docs/reference.md#upload-recipients-csv). */
export interface UploadAnswer {
  recipientsAdded: number;
  uploaded: number;
  total: number;
  campaignId: string;
  skipped: number;
  errors: { row: number; reason: string }[];
}

export const upload = (app: EmulatorApp, csv: string | null, campaignId: string | null, options: CallOptions = {}) =>
  call<UploadAnswer>(app, 'POST', '/api/campaigns/upload', undefined, { ...options, raw: uploadForm(csv, campaignId) });

/** CSV for the order-confirmation template: user_id,customerName,cta. */
export function orderCsv(userIds: string[]): string {
  return ['user_id,customerName,cta', ...userIds.map((u) => `${u},Name ${u},${CTA_CELL}`)].join('\n');
}

/**
 * Polls the inspect view until the campaign has `status` (or one of several), with no timing
 * assertion: only an upper bound to fail instead of hanging.
 */
export async function waitForCampaignStatus(
  app: EmulatorApp,
  id: string,
  status: string | readonly string[],
  timeoutMs = 10_000,
): Promise<Campaign> {
  const wanted = typeof status === 'string' ? [status] : status;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const res = await call<Campaign>(app, 'GET', `/__inspect/campaigns/${id}`);
    if (wanted.includes(res.body.status)) return res.body;
    if (performance.now() > deadline)
      throw new Error(`campaign ${id} is ${res.body.status}, expected ${wanted.join(' or ')}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
