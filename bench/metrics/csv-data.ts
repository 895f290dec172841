/**
 * The 100,000-row recipients CSV of the CSV and campaign metrics, made by the project's
 * own seeded generator for a fixture template, and a helper to create + upload a campaign.
 */
import { request } from 'node:http';
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

export async function createCampaign(url: string, name: string, appid: string = API_HEADERS.appid): Promise<string> {
  const body = { name, templateId: CSV_TEMPLATE, deliveryMode: 'batch' };
  const res = await postJson(`${url}/api/campaigns`, body, appid);
  expectStatus('create campaign', res);
  return (res.json as { id: string }).id;
}

/** Cannot occur in a generated CSV (no run of dashes this long, no "bench-upload"). */
const BOUNDARY = '--------bench-upload-4f1c9a';

/**
 * The multipart body of an upload in three parts, the file itself not copied: a fresh 18 MB
 * buffer costs ~60 ms of page faults on the bench's VM, a block in the process that times.
 */
function multipartBody(campaignId: string, csv: Uint8Array): Uint8Array[] {
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\n${campaignId}\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="recipients.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n`;
  return [Buffer.from(head), csv, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)];
}

/**
 * POSTs the parts of a body with node:http; answers the status and the text. Not fetch: given
 * an 18 MB body, fetch blocks its caller's event loop for ~100 ms while it copies the body and
 * again while it sends it (~200 ms in all; node:http sends the same body in ~60 ms with no
 * block over 15 ms). That time was counted as the emulator's in the upload's figure, and it
 * delayed the stall metric's /__health probes, which run in the same process.
 */
function post(
  url: string,
  headers: Record<string, string>,
  parts: Uint8Array[],
): Promise<{ status: number; text: string }> {
  const length = parts.reduce((sum, part) => sum + part.byteLength, 0);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const part of parts) req.write(part);
    req.end();
  });
}

/** Uploads the file (as app `appid`, the bench's by default); answers the wall time of the request. */
export async function upload(
  url: string,
  campaignId: string,
  csv: Uint8Array,
  expectedRows: number,
  appid: string = API_HEADERS.appid,
): Promise<number> {
  const body = multipartBody(campaignId, csv);
  const started = now();
  const res = await post(
    `${url}/api/campaigns/upload`,
    {
      appid,
      apikey: API_HEADERS.apikey,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body,
  );
  const elapsed = now() - started;
  const json = JSON.parse(res.text) as { recipientsAdded?: number };
  if (res.status !== 200 || json.recipientsAdded !== expectedRows) {
    throw new Error(`upload answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
  return elapsed;
}
