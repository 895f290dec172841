/**
 * GET /__inspect/requests.har: the journal as HAR 1.2, checked against the HAR 1.2 JSON
 * schema (har-schema) with ajv, and read back: every journaled request is in it as journaled.
 */
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/index.js';
import { call, callOk, expectApiError, makeTestApp, manualClock, type List } from '../helpers/app.js';

const require = createRequire(import.meta.url);
const harSchemas = require('har-schema') as Record<string, { $id: string }>;
const draft6 = require('ajv/dist/refs/json-schema-draft-06.json') as object;

function harValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addMetaSchema(draft6);
  addFormats.default(ajv);
  for (const schema of Object.values(harSchemas)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  comment: string;
  request: {
    method: string;
    url: string;
    headers: { name: string; value: string }[];
    queryString: { name: string; value: string }[];
    postData?: { text: string };
  };
  response: { status: number; content: { text?: string } };
}

describe('GET /__inspect/requests.har', () => {
  it('validates as HAR 1.2 and holds every journaled request, scenario rules named', async () => {
    const app = makeTestApp({
      clock: manualClock(),
      scenarios: [
        { name: 'busy', rules: [{ match: { path: '/api/campaigns' }, fault: { error: 'ERR_TOO_MANY_REQUESTS' } }] },
      ],
    });
    await call(app, 'POST', '/api/notifications/send', { template: { key: 'plain' }, targets: ['u1'], mode: 'batch' });
    await call(app, 'POST', '/api/notifications/send', { template: {} });
    await call(app, 'GET', '/api/templates?limit=2&offset=0');
    await call(app, 'POST', '/api/campaigns', { name: 'x' }, { headers: { 'x-emulator-scenario': 'busy' } });
    const res = await call<{ log: { entries: HarEntry[] } }>(app, 'GET', '/__inspect/requests.har');
    expect(res.status).toBe(200);
    const validate = harValidator();
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ log: { version: '1.2', entries: [{}] } })).toBe(false);

    const journal = await callOk<List<JournalEntry>>(app, 'GET', '/__inspect/requests?limit=10000');
    const entries = res.body.log.entries;
    expect(entries).toHaveLength(journal.total);
    entries.forEach((entry, i) => {
      const journaled = journal.items[i]!;
      expect(entry.request.method).toBe(journaled.method);
      expect(new URL(entry.request.url).pathname).toBe(journaled.path);
      expect(entry.response.status).toBe(journaled.status);
      expect(entry.request.postData?.text ?? null).toBe(journaled.requestBody);
      expect(entry.response.content.text ?? null).toBe(journaled.responseBody);
      expect(Object.fromEntries(entry.request.headers.map((h) => [h.name, h.value]))).toEqual(journaled.requestHeaders);
      expect(entry.time).toBe(journaled.durationMs);
    });
    expect(entries[0]!.request.headers).toContainEqual({ name: 'apikey', value: '***' });
    expect(entries[2]!.request.queryString).toEqual([
      { name: 'limit', value: '2' },
      { name: 'offset', value: '0' },
    ]);
    expect(entries[3]!.comment).toMatch(/scenario "busy" rule 1/);
  });

  it('takes the journal filters, and refuses a bad one', async () => {
    const app = makeTestApp({ scenarios: [] });
    await call(app, 'POST', '/api/notifications/send', { template: {} });
    await call(app, 'GET', '/api/templates');
    const posts = await call<{ log: { entries: HarEntry[] } }>(app, 'GET', '/__inspect/requests.har?method=POST');
    expect(posts.body.log.entries.map((e) => e.request.method)).toEqual(['POST']);
    expectApiError(await call(app, 'GET', '/__inspect/requests.har?status=9'), 400, 'ERR_BAD_REQUEST');
    expectApiError(await call(app, 'GET', '/__inspect/requests.har?nope=1'), 400, 'ERR_BAD_REQUEST');
  });
});
