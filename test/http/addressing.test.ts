import type { JournalEntry } from '../../src/index.js';
/**
 * Addressing (docs/reference.md#addressing): both API prefixes, 404 for unknown paths, 405 with Allow for a
 * known path with the wrong method; all with the error envelope.
 */
import { describe, expect, it } from 'vitest';
import { call, expectApiError, makeTestApp, type List } from '../helpers/app.js';

const body = { template: { key: 'plain' }, targets: ['a'], mode: 'realtime' };

describe('addressing', () => {
  it.each(['/api', '/v3/business-messaging/api'])('serves the API under %s', async (prefix) => {
    const app = makeTestApp();
    const res = await call(app, 'POST', `${prefix}/notifications/send`, body);
    expect(res.status).toBe(200);
  });

  it.each(['/api/nothing-here', '/v3/business-messaging/api/nope', '/elsewhere', '/__nope'])(
    'answers 404 ERR_NOT_FOUND for %s',
    async (path) => {
      const app = makeTestApp();
      const res = await call(app, 'GET', path);
      expectApiError(res, 404, 'ERR_NOT_FOUND');
    },
  );

  it.each(['/api/notifications/send', '/v3/business-messaging/api/notifications/send'])(
    'answers 405 with Allow for GET %s',
    async (path) => {
      const app = makeTestApp();
      const res = await call(app, 'GET', path);
      expectApiError(res, 405, 'ERR_BAD_REQUEST');
      expect(res.headers.get('allow')).toContain('POST');
    },
  );

  it('answers 405 for PUT on a control path that only reads', async () => {
    const app = makeTestApp();
    const res = await call(app, 'PUT', '/__health');
    expectApiError(res, 405, 'ERR_BAD_REQUEST');
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('checks credentials before routing under the API prefixes (401 beats 404 and 405)', async () => {
    const app = makeTestApp();
    expectApiError(await call(app, 'GET', '/api/nothing-here', undefined, { appId: '' }), 401, 'ERR_UNAUTHORIZED');
    expectApiError(
      await call(app, 'GET', '/api/notifications/send', undefined, { appId: '' }),
      401,
      'ERR_UNAUTHORIZED',
    );
  });

  it('journals a 404 under an API prefix', async () => {
    const app = makeTestApp();
    expectApiError(await call(app, 'GET', '/api/nothing-here'), 404, 'ERR_NOT_FOUND');
    const { body: journal } = await call<List<JournalEntry>>(app, 'GET', '/__inspect/requests');
    expect(journal.items).toEqual([
      expect.objectContaining({ path: '/api/nothing-here', status: 404, errorCode: 'ERR_NOT_FOUND' }),
    ]);
  });
});
