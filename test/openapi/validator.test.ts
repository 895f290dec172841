/**
 * The check every test answer goes through (test/helpers/openapi.ts) fails on what the
 * document does not describe, and lets through only what a fault scenario scripted.
 */
import { describe, expect, it } from 'vitest';
import { checkAnswer, findOperation } from '../helpers/openapi.js';
import { call, makeTestApp, send } from '../helpers/app.js';

const SEND = '/api/notifications/send';
const headers = (h: Record<string, string> = {}) => new Headers(h);

describe('the OpenAPI check of test answers', () => {
  it('finds operations under both base paths, literal segments before parameters', () => {
    expect(findOperation('POST', '/v3/business-messaging/api/notifications/send')?.template).toBe(SEND);
    expect(findOperation('get', '/api/channels/availability?x=1')?.template).toBe('/api/channels/availability');
    expect(findOperation('GET', '/api/channels/ch_1')?.template).toBe('/api/channels/{id}');
    expect(findOperation('GET', '/v3/business-messaging/__health')).toBeNull();
    expect(findOperation('PATCH', SEND)).toBeNull();
  });

  it('refuses a status the operation does not describe', () => {
    const app = makeTestApp();
    expect(() => checkAnswer(app, 'POST', SEND, { status: 201, headers: headers(), body: {} })).toThrow(
      /describes no 201 for POST \/api\/notifications\/send/,
    );
  });

  it('refuses a body that does not match: a missing field, an extra field, a code of another status', async () => {
    const app = makeTestApp();
    const ok = await send(app, { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
    expect(ok.status).toBe(200);
    const { sentFrom: _, ...missing } = ok.body;
    expect(() => checkAnswer(app, 'POST', SEND, { ...ok, body: missing })).toThrow(/sentFrom/);
    expect(() => checkAnswer(app, 'POST', SEND, { ...ok, body: { ...ok.body, extra: 1 } })).toThrow(
      /additional properties/,
    );
    const envelope = { error: { code: 'ERR_NOT_FOUND', message: 'm', devMessage: 'd' } };
    expect(() => checkAnswer(app, 'POST', SEND, { status: 400, headers: headers(), body: envelope })).toThrow(
      /allowed values/,
    );
    expect(() => checkAnswer(app, 'POST', SEND, { status: 404, headers: headers(), body: envelope })).not.toThrow();
  });

  it('refuses a list without its X-Total-Count header', () => {
    const app = makeTestApp();
    expect(() => checkAnswer(app, 'GET', '/api/campaigns', { status: 200, headers: headers(), body: [] })).toThrow(
      /X-Total-Count/,
    );
  });

  it('refuses a request no operation describes unless it is an error envelope (404, 405)', () => {
    const app = makeTestApp();
    expect(() => checkAnswer(app, 'GET', '/api/nope', { status: 200, headers: headers(), body: {} })).toThrow(
      /no operation/,
    );
    const envelope = { error: { code: 'ERR_NOT_FOUND', message: 'm', devMessage: 'd' } };
    expect(() =>
      checkAnswer(app, 'GET', '/api/nope', { status: 404, headers: headers(), body: envelope }),
    ).not.toThrow();
  });

  it('lets through an answer a fault scenario scripted, and only that one', async () => {
    const app = makeTestApp({
      scenarios: [
        { name: 'teapot', rules: [{ match: { method: 'POST' }, fault: { status: 418, body: { tea: true } } }] },
      ],
    });
    const scripted = await call(
      app,
      'POST',
      SEND,
      { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' },
      {
        headers: { 'x-emulator-scenario': 'teapot' },
      },
    );
    expect(scripted.status).toBe(418);
    expect(() => checkAnswer(app, 'GET', '/api/templates', { status: 418, headers: headers(), body: {} })).toThrow();
  });
});
