import type { Recipient, Campaign } from '../../src/index.js';
/**
 * POST /api/campaigns/upload, the request body (docs/reference.md#upload-recipients-csv): multipart bodies written by
 * hand as curl and browsers send them, malformed ones, whole-file refusals late in a file, and
 * a send, a reset or another upload that comes while a body is still arriving.
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

  it('ignores form fields other than file and campaignId, before and after the file', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const form = new FormData();
    form.append('note', 'before');
    form.append('campaignId', c.id);
    form.append('file', new Blob([orderCsv(['u1', 'u2'])], { type: 'text/csv' }), 'r.csv');
    form.append('other', new Blob(['user_id\nx9'], { type: 'text/csv' }), 'other.csv');
    form.append('note', 'after');
    const res = await call(app, 'POST', '/api/campaigns/upload', undefined, { raw: form });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ recipientsAdded: 2, total: 2 });
  });

  it('answers 400 naming a file or campaignId given twice, adding nothing to either campaign', async () => {
    const app = makeTestApp();
    const [a, b] = [await createCampaign(app), await createCampaign(app)];
    const csv = () => new Blob([orderCsv(['u1', 'u2'])], { type: 'text/csv' });
    // The second campaignId comes after the file was already read into an upload for the first.
    const idAfterFile = new FormData();
    idAfterFile.append('campaignId', a.id);
    idAfterFile.append('file', csv(), 'r.csv');
    idAfterFile.append('campaignId', b.id);
    const twoFiles = new FormData();
    twoFiles.append('file', csv(), 'r.csv');
    twoFiles.append('campaignId', a.id);
    twoFiles.append('file', csv(), 'again.csv');
    for (const [form, field] of [
      [idAfterFile, 'campaignId'],
      [twoFiles, 'file'],
    ] as const) {
      const res = await call(app, 'POST', '/api/campaigns/upload', undefined, { raw: form });
      expectApiError(res, 400, 'ERR_BAD_REQUEST');
      expect(errorOf(res).details).toEqual({ [field]: 'is given more than once' });
      expect(errorOf(res).devMessage).toContain(`${field}: is given more than once`);
    }
    expect([await recipientTotal(app, a.id), await recipientTotal(app, b.id)]).toEqual([0, 0]);
  });

  it('answers 400 naming the body for a multipart request without a body (app.request in process)', async () => {
    const res = await call(makeTestApp(), 'POST', '/api/campaigns/upload', undefined, {
      headers: { 'content-type': TYPE },
    });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details).toEqual({ body: 'malformed multipart/form-data' });
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
    // Also when an active scenario matches on campaignId, so reads the form before the route.
    for (const scenario of [null, { match: { campaignId: 'elsewhere-*' }, fault: { error: 'ERR_OPERATION_FAILED' } }]) {
      const app = makeTestApp({ uploadLimitBytes: 1024 });
      if (scenario) {
        await callOk(app, 'POST', '/__scenarios', { name: 'by-campaign', rules: [scenario] });
        await callOk(app, 'PUT', '/__scenarios/active', { names: ['by-campaign'] });
      }
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
      expect(res.status, JSON.stringify(scenario)).toBe(413);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ERR_PAYLOAD_TOO_LARGE');
      expect(await recipientTotal(app, c.id)).toBe(0);
    }
  });
});

/**
 * An upload whose body stops after `head` until the test lets the rest (`tail`) come: what a
 * slow client's large file does over a socket. Resolves `paused` once the emulator has read
 * the head and asks for more.
 */
function pausedUpload(app: ReturnType<typeof makeTestApp>, campaignId: string, csv: string, splitAt: number) {
  const bytes = curlBody(campaignId, csv);
  const cut = bytes.length - (csv.length - splitAt) - `\r\n${DELIMITER}--\r\n`.length;
  let pulls = 0;
  let resume!: () => void;
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  let pausedNow!: () => void;
  const paused = new Promise<void>((resolve) => (pausedNow = resolve));
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (++pulls === 1) return controller.enqueue(bytes.subarray(0, cut));
        pausedNow();
        await resumed;
        controller.enqueue(bytes.subarray(cut));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const answer = request(app, '/api/campaigns/upload', {
    method: 'POST',
    body,
    headers: { appid: 'app-test', apikey: 'key-test', 'content-type': TYPE },
    duplex: 'half',
  } as RequestInit).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
  // Past the pull: the head has been handed over and parsed on the way.
  const parsed = paused.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  return { parsed, resume, answer };
}

describe('POST /api/campaigns/upload: what happens while the body is still coming', () => {
  const users = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `u${from + i}`);
  /** Users u1 to u200 uploaded to `campaignId`, the body paused once u1 to u100 are read. */
  async function uploadPausedHalfway(app: ReturnType<typeof makeTestApp>, campaignId: string, more: string[] = []) {
    const csv = `${orderCsv([...users(1, 200), ...more])}\n`;
    const upload = pausedUpload(app, campaignId, csv, csv.indexOf('u101,'));
    await upload.parsed;
    return upload;
  }

  it('refuses the upload, adding nothing, when the campaign was sent meanwhile', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    await callOk(app, 'POST', `/api/campaigns/${c.id}/recipients`, { userIds: ['early'] });
    const upload = await uploadPausedHalfway(app, c.id);
    await callOk(app, 'POST', `/api/campaigns/${c.id}/send`, {});
    upload.resume();
    const res = await upload.answer;
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({
      error: {
        code: 'ERR_BAD_REQUEST',
        devMessage: expect.stringMatching(/; a CSV upload needs a campaign in "draft" status\.$/),
        details: { status: expect.stringMatching(/^is "(sending|sent)", must be "draft"$/) },
      },
    });
    expect(await recipientTotal(app, c.id)).toBe(1);
  });

  it('answers 404, keeping no recipient anywhere, when a reset took the campaign meanwhile', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    const upload = await uploadPausedHalfway(app, c.id);
    await callOk(app, 'POST', '/__reset', {});
    upload.resume();
    const res = await upload.answer;
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(res.body).toMatchObject({ error: { code: 'ERR_NOT_FOUND' } });
    const health = await callOk<{ retention: { recipients: { stored: number } } }>(app, 'GET', '/__health');
    expect(health.retention.recipients.stored).toBe(0);
  });

  it('skips as duplicates the rows another upload added meanwhile, and names them', async () => {
    const app = makeTestApp();
    const c = await createCampaign(app);
    // Its last row repeats u1: a duplicate within the file, found before those of the other upload.
    const slow = await uploadPausedHalfway(app, c.id, ['u1']);
    const fast = await upload(app, orderCsv(users(150, 250)), c.id);
    expect(fast.body).toMatchObject({ recipientsAdded: 101, total: 101, skipped: 0 });
    slow.resume();
    const res = await slow.answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Rows count the header as row 1: user u150 is on row 151.
    const duplicateRows = users(150, 200).map((_, i) => ({ row: 151 + i, reason: 'duplicate user_id' }));
    duplicateRows.push({ row: 202, reason: 'duplicate user_id' });
    expect(res.body).toEqual({
      recipientsAdded: 149,
      uploaded: 149,
      total: 250,
      campaignId: c.id,
      skipped: 52,
      errors: duplicateRows,
    });
    expect(await recipientTotal(app, c.id)).toBe(250);
  });
});
