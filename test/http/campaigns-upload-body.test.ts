import type { Recipient, Campaign } from '../../src/index.js';
/**
 * POST /api/campaigns/upload, the request body (docs/reference.md#upload-recipients-csv): multipart bodies written by
 * hand as curl and browsers send them, malformed ones, and whole-file refusals late in a file.
 */
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, callOk, type List, errorOf, call, request } from '../helpers/app.js';
import { createCampaign, CTA_CELL, orderCsv, upload } from '../helpers/campaigns.js';

const TYPE = 'multipart/form-data; boundary=------------------------d74496d66958873e';
const DELIMITER = '--------------------------d74496d66958873e';

function curlBody(campaignId: string, file: string | Uint8Array, filename: string | null = 'r.csv'): Uint8Array {
  const enc = new TextEncoder();
  const fileName = filename === null ? '' : `; filename="${filename}"\r\nContent-Type: text/csv`;
  const fileHead = `Content-Disposition: form-data; name="file"${fileName}`;
  const head = enc.encode(
    `${DELIMITER}\r\nContent-Disposition: form-data; ` +
      `name="campaignId"\r\n\r\n${campaignId}\r\n${DELIMITER}\r\n${fileHead}\r\n\r\n`,
  );
  const data = typeof file === 'string' ? enc.encode(file) : file;
  return new Uint8Array([...head, ...data, ...enc.encode(`\r\n${DELIMITER}--\r\n`)]);
}

const post = (app: ReturnType<typeof makeTestApp>, raw: Uint8Array | string, type = TYPE) =>
  call(app, 'POST', '/api/campaigns/upload', undefined, { raw, headers: { 'content-type': type } });

const recipientTotal = async (app: ReturnType<typeof makeTestApp>, id: string) =>
  (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${id}/recipients?limit=1`)).body.total;

describe('POST /api/campaigns/upload: request body', () => {
  it('reads a curl-style body whose CSV has CRLF line ends and a trailing blank line', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const res = await post(
      app,
      curlBody(c.id, `user_id,customerName,cta\r\nu1,Ann,${CTA_CELL}\r\nu2,"Bob\r\nJr.",${CTA_CELL}\r\n\r\n`),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ recipientsAdded: 2, total: 2, skipped: 0 });
    const items = (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${c.id}/recipients`)).body.items;
    expect(items.map((r) => r.variables.customerName)).toEqual(['Ann', 'Bob\nJr.']);
    expect(new Set(items.map((r) => r.id)).size).toBe(2);
  });

  it('answers 400 naming the body for a truncated or boundary-less multipart body, adding nothing', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const whole = curlBody(c.id, orderCsv(['u1']));
    for (const [raw, type] of [
      [whole.subarray(0, whole.length - 30), TYPE],
      [whole, 'multipart/form-data'],
    ] as const) {
      const res = await post(app, raw, type);
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(errorOf(res).details).toEqual({ body: 'malformed multipart/form-data' });
    }
    expect(await recipientTotal(app, c.id)).toBe(0);
  });

  it('answers 400 naming the file for invalid UTF-8, in a file part and in a text field', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app, { templateId: 'plain' });
    const bad = new Uint8Array([...new TextEncoder().encode('user_id\nu'), 0xff, 0x0a]);
    for (const filename of ['r.csv', null]) {
      const res = await post(app, curlBody(c.id, bad, filename));
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(errorOf(res).details).toEqual({ file: 'is not valid UTF-8' });
    }
  });

  it('adds nothing when a quoting error comes after thousands of good rows', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const users = Array.from({ length: 5000 }, (_, i) => `u${i}`);
    const res = await upload(app, `${orderCsv(users)}\nlast,"Unclosed,${CTA_CELL}\n`, c.id);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toHaveProperty('row 5002');
    expect(await recipientTotal(app, c.id)).toBe(0);
    expect((await call<Campaign>(app, 'GET', `/api/campaigns/${c.id}`)).body.recipientCount).toBe(0);
  });

  it('lists row problems and duplicates together in row order', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const csv = [
      'user_id,customerName,cta',
      `u1,Ann,${CTA_CELL}`,
      `u1,Ann,${CTA_CELL}`,
      `,NoId,${CTA_CELL}`,
      `u1,Ann,${CTA_CELL}`,
      'u5,Bad,{oops',
      `u6,Cy,${CTA_CELL}`,
    ].join('\n');
    const res = await upload(app, csv, c.id);
    expect(res.body).toMatchObject({ recipientsAdded: 2, total: 2, skipped: 4 });
    expect(res.body.errors.map((e) => [e.row, e.reason.slice(0, 9)])).toEqual([
      [3, 'duplicate'],
      [4, 'user_id i'],
      [5, 'duplicate'],
      [6, 'column ct'],
    ]);
  });

  it('reads the form when a scenario body matcher has read it first', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const scenario = {
      name: 'other-campaign',
      rules: [
        {
          match: { path: '/api/campaigns/upload', campaignId: 'ffffffffffffffffffffffff' },
          fault: { error: 'ERR_OPERATION_FAILED' },
        },
      ],
    };
    expect((await call(app, 'POST', '/__scenarios', scenario)).status).toBe(201);
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['other-campaign'] });
    const res = await upload(app, orderCsv(['u1', 'u2']), c.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ recipientsAdded: 2, total: 2 });
  });
  it('answers 413 for a chunked body (no Content-Length) past the upload limit', async () => {
    const app = makeTestApp({ uploadLimitBytes: 1024 });
    const c = await createCampaign(app, { templateId: 'plain' });
    const bytes = curlBody(c.id, `user_id\n${'u1234567\n'.repeat(500)}`);
    const body = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 500) controller.enqueue(bytes.subarray(i, i + 500));
        controller.close();
      },
    });
    const headers = { appid: 'app-test', apikey: 'key-test', 'content-type': TYPE };
    const res = await request(app, '/api/campaigns/upload', {
      method: 'POST',
      body,
      headers,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
    expect(await recipientTotal(app, c.id)).toBe(0);
  });
});
