/**
 * Proxy mode's plain parts (docs/running.md#proxy-mode): where a call is forwarded, and what
 * the check of a live answer against the OpenAPI document says about it, line by line.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { callOk, makeTestApp } from '../helpers/app.js';
import { createAnswerCheck, type CheckedAnswer } from '../../src/openapi/answer-check.js';
import { apiPathOf, upstreamTarget } from '../../src/upstream/target.js';

/** A template as the emulator answers it: what the live service's answers are held to. */
let TEMPLATE: Record<string, unknown>;
beforeAll(async () => {
  TEMPLATE = await callOk(makeTestApp(), 'GET', '/api/templates/plain');
});

const answer = (over: Partial<CheckedAnswer> & { headers?: Record<string, string> }): CheckedAnswer => {
  const headers = { 'content-type': 'application/json', ...over.headers };
  return {
    method: 'GET',
    path: '/api/templates/plain',
    status: 200,
    body: '{}',
    ...over,
    header: (name) => headers[name.toLowerCase() as keyof typeof headers] ?? null,
  };
};

describe('where proxy mode forwards a call', () => {
  it('keeps the path after the base path, under either base path, with the raw query', () => {
    const target = upstreamTarget({ upstream: 'http://live.example:8080/v3/business-messaging/' })!;
    expect(target.shown).toBe('http://live.example:8080/v3/business-messaging');
    expect(target.urlFor(null, apiPathOf('/v3/business-messaging/api/templates'), 'limit=1&x=%20')).toBe(
      'http://live.example:8080/v3/business-messaging/api/templates?limit=1&x=%20',
    );
    expect(target.urlFor('shop', apiPathOf('/api/campaigns/c%2F1'), '')).toBe(
      'http://live.example:8080/v3/business-messaging/api/campaigns/c%2F1',
    );
  });

  it('lands any path and query under either base path on the same live URL, unchanged', () => {
    const target = upstreamTarget({ upstream: 'https://live.example/v3/business-messaging' })!;
    const segment = fc.stringMatching(/^[A-Za-z0-9._~%-]{1,12}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 4 }),
        fc.stringMatching(/^[A-Za-z0-9=&%._-]{0,20}$/),
        (parts, query) => {
          const path = ['/api', ...parts].join('/');
          const expected = `https://live.example/v3/business-messaging${path}${query ? `?${query}` : ''}`;
          expect(target.urlFor('shop', apiPathOf(path), query)).toBe(expected);
          expect(target.urlFor('shop', apiPathOf(`/v3/business-messaging${path}`), query)).toBe(expected);
        },
      ),
      { numRuns: 500, seed: 56 },
    );
  });

  it('builds each app’s own production host with a region, as pull does; none without a usable app id', () => {
    const target = upstreamTarget({ upstreamRegion: 'eu' })!;
    expect(target.urlFor('shop-1', '/api/templates', '')).toMatch(
      /^https:\/\/shop-1\.api-eu\.[a-z.]+\/v3\/business-messaging\/api\/templates$/,
    );
    expect(target.urlFor(null, '/api/templates', '')).toBe('no-app');
    expect(target.urlFor('a.b', '/api/templates', '')).toBe('app-not-a-host');
    expect(upstreamTarget({})).toBeNull();
  });
});

describe('the check of a live answer against the OpenAPI document', () => {
  const check = createAnswerCheck();

  it('finds nothing wrong with an answer the document describes, extra fields included', () => {
    expect(check(answer({ body: JSON.stringify({ ...TEMPLATE, newField: 1 }) }))).toEqual([]);
    const envelope = { error: { code: 'ERR_NOT_FOUND', message: 'm', devMessage: 'd' } };
    expect(check(answer({ status: 404, body: JSON.stringify(envelope) }))).toEqual([]);
    expect(check(answer({ path: '/api/nope', status: 404, body: JSON.stringify(envelope) }))).toEqual([]);
  });

  it('names each problem by its JSON path and what was expected', () => {
    const { name: _, ...missing } = TEMPLATE;
    expect(check(answer({ body: JSON.stringify({ ...missing, channels: ['in_app', 7], 'odd key': 1 }) }))).toEqual([
      '$.name: expected string, received undefined',
      '$.channels[1]: expected string, received number',
    ]);
    const wrongCode = { error: { code: 'ERR_INVALID_MODE', message: 'm', devMessage: 'd' } };
    expect(check(answer({ status: 404, body: JSON.stringify(wrongCode) }))).toEqual([
      expect.stringMatching(/^\$\.error\.code: .*"ERR_NOT_FOUND"/),
    ]);
  });

  it('names a body that is not JSON, a status or route the document lacks, and keeps 20 lines at most', () => {
    expect(check(answer({ headers: { 'content-type': 'text/html' }, body: '<html>' }))).toEqual([
      'content-type: expected application/json, got text/html',
    ]);
    expect(check(answer({ body: '{"id":' }))).toEqual(['$: expected a JSON body, got text that is not JSON']);
    expect(check(answer({ status: 201, body: '{}' }))).toEqual([
      expect.stringMatching(/^status: expected one of 200, .* for GET \/api\/templates\/\{id\}, got 201$/),
    ]);
    expect(check(answer({ path: '/api/nope', body: '{}' }))).toEqual([
      'GET /api/nope: no operation of the document describes this request (answered 200)',
    ]);
    expect(check(answer({ method: 'HEAD', body: '' }))).toEqual([]);
    expect(check(answer({ method: 'HEAD', path: '/api/templates', body: '' }))).toEqual([
      'header X-Total-Count: expected on a 200 of HEAD /api/templates, missing',
    ]);
    const many = Array.from({ length: 30 }, () => ({ ...TEMPLATE, key: 1 }));
    const lines = check(
      answer({ path: '/api/templates', headers: { 'x-total-count': '30' }, body: JSON.stringify(many) }),
    );
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toBe('… and 10 more'); // one line per item
  });
});
