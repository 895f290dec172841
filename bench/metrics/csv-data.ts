/**
 * The 100,000-row recipients CSV of the CSV and campaign metrics, made by the project's
 * own seeded generator for a fixture template, and a helper to create + upload a campaign.
 */
import { join } from 'node:path';
import { loadTemplates } from '../../src/catalog/load-fixtures.js';
import { generateRecipientsCsv } from '../../src/platform/fake-data.js';
import { postJson, expectStatus, ROOT, SEED, API_HEADERS, now } from '../util.js';

/** order-confirmation: 3 string/action columns and an optional image column (JSON cells). */
export const CSV_TEMPLATE = process.env.BENCH_CSV_TEMPLATE ?? 'order-confirmation';

export function recipientsCsv(rows: number): Uint8Array {
  const template = loadTemplates(join(ROOT, 'fixtures'), '1970-01-01T00:00:00.000Z').find(
    (t) => t.key === CSV_TEMPLATE,
  );
  if (!template) throw new Error(`no fixture template "${CSV_TEMPLATE}"`);
  return new TextEncoder().encode(generateRecipientsCsv(template, rows, SEED));
}

export async function createCampaign(url: string, name: string): Promise<string> {
  const res = await postJson(`${url}/api/campaigns`, { name, templateId: CSV_TEMPLATE, deliveryMode: 'batch' });
  expectStatus('create campaign', res);
  return (res.json as { id: string }).id;
}

/** Uploads the file; answers the wall time of the request (send to full answer). */
export async function upload(url: string, campaignId: string, csv: Uint8Array, expectedRows: number): Promise<number> {
  const form = new FormData();
  form.set('campaignId', campaignId);
  form.set('file', new Blob([csv], { type: 'text/csv' }), 'recipients.csv');
  const started = now();
  const res = await fetch(`${url}/api/campaigns/upload`, {
    method: 'POST',
    headers: { appid: API_HEADERS.appid, apikey: API_HEADERS.apikey },
    body: form,
  });
  const json = (await res.json()) as { recipientsAdded?: number };
  const elapsed = now() - started;
  if (res.status !== 200 || json.recipientsAdded !== expectedRows) {
    throw new Error(`upload answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  }
  return elapsed;
}
