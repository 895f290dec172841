/**
 * Each matcher of a scenario rule on its own (src/scenario-engine/match.ts): every field a rule
 * names must hold, on the request or on a delivery, and each explains itself in words.
 */
import { describe, expect, it } from 'vitest';
import { buildMatchers, explainMatchers, isSubset, type RequestFacts } from '../../src/scenario-engine/match.js';
import type { DeliveryFacts } from '../../src/domain/ports.js';
import type { ScenarioMatch } from '../../src/schemas/scenario-file.js';

const request = (over: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'POST',
  path: '/api/notifications/send',
  appId: 'shop',
  headers: {},
  body: undefined,
  templateKey: null,
  campaignId: null,
  ...over,
});
const delivery = (over: Partial<DeliveryFacts> = {}): DeliveryFacts => ({
  appId: 'shop',
  userId: 'user-1',
  templateKey: 'welcome',
  campaignId: null,
  ...over,
});

/** Whether every matcher of `match` holds, as the engine asks. */
const fires = (match: ScenarioMatch, r: RequestFacts | undefined, d?: DeliveryFacts) =>
  buildMatchers(match).every((m) => m.test(r, d));
const words = (match: ScenarioMatch) => explainMatchers(buildMatchers(match));

describe('method and path', () => {
  it('a rule with only a method fires on that method and no other, on any path', () => {
    expect(fires({ method: 'POST' }, request())).toBe(true);
    expect(fires({ method: 'POST' }, request({ path: '/api/templates' }))).toBe(true);
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) expect(fires({ method }, request())).toBe(false);
    expect(fires({ method: 'GET' }, request({ method: 'GET' }))).toBe(true);
    expect(words({ method: 'GET' })).toBe('GET on any path');
  });

  it('a rule with only a path fires on any method there, and nowhere else', () => {
    expect(fires({ path: '/api/notifications/send' }, request({ method: 'GET' }))).toBe(true);
    expect(fires({ path: '/api/notifications/send' }, request({ path: '/api/templates' }))).toBe(false);
    expect(words({ path: '/v3/business-messaging/api/campaigns/' })).toBe('any method /api/campaigns');
  });

  it('needs both when both are given, and a request (never fires on delivery facts alone)', () => {
    const match = { method: 'POST', path: '/api/campaigns/:id/send' };
    expect(fires(match, request({ path: '/api/campaigns/c1/send' }))).toBe(true);
    expect(fires(match, request({ path: '/api/campaigns/c1/send', method: 'GET' }))).toBe(false);
    expect(fires(match, request())).toBe(false);
    expect(fires(match, undefined, delivery())).toBe(false);
    expect(words(match)).toBe('POST /api/campaigns/:id/send');
  });
});

describe('headers', () => {
  const match = { headers: { 'X-Tenant': 'acme', 'x-region': 'eu-*' } };

  it('fires only when every named header is present and matches (names in any case)', () => {
    expect(fires(match, request({ headers: { 'x-tenant': 'acme', 'x-region': 'eu-west' } }))).toBe(true);
    expect(fires(match, request({ headers: { 'x-tenant': 'acme', 'x-region': 'us-east' } }))).toBe(false);
    expect(fires(match, request({ headers: { 'x-tenant': 'other', 'x-region': 'eu-west' } }))).toBe(false);
    expect(fires(match, request({ headers: { 'x-tenant': 'acme' } }))).toBe(false);
    expect(fires(match, request({ headers: { 'x-region': 'eu-west' } }))).toBe(false);
    expect(fires({ headers: { 'x-empty': '' } }, request({ headers: {} }))).toBe(false);
    expect(fires({ headers: { 'x-empty': '' } }, request({ headers: { 'x-empty': '' } }))).toBe(true);
    expect(fires(match, undefined, delivery())).toBe(false);
    expect(words(match)).toBe('headers {"X-Tenant":"acme","x-region":"eu-*"}');
  });
});

describe('body', () => {
  it('a rule expecting an array does not match a body holding one of its elements', () => {
    expect(fires({ body: { targets: ['a', 'b'] } }, request({ body: { targets: 'a' } }))).toBe(false);
    expect(fires({ body: { targets: ['a'] } }, request({ body: { targets: 'a' } }))).toBe(false);
    expect(fires({ body: ['a'] }, request({ body: 'a' }))).toBe(false);
    expect(fires({ body: { targets: ['a'] } }, request({ body: { targets: ['b', 'a'] } }))).toBe(true);
    expect(fires({ body: { targets: ['a', 'c'] } }, request({ body: { targets: ['b', 'a'] } }))).toBe(false);
  });

  it('needs a parsed body and explains itself', () => {
    expect(fires({ body: {} }, request({ body: undefined }))).toBe(false);
    expect(fires({ body: {} }, request({ body: { any: 1 } }))).toBe(true);
    expect(fires({ body: { mode: 'batch' } }, undefined, delivery())).toBe(false);
    expect(words({ body: { mode: 'batch' } })).toBe('body containing {"mode":"batch"}');
  });

  it('compares as a deep subset: objects by key, primitives exactly', () => {
    expect(isSubset(null, null)).toBe(true);
    expect(isSubset(null, {})).toBe(false);
    expect(isSubset({}, null)).toBe(false);
    expect(isSubset({ a: 1 }, [1])).toBe(false);
    expect(isSubset({}, 'text')).toBe(false);
    expect(isSubset({}, 5)).toBe(false);
    expect(isSubset({ a: undefined }, {})).toBe(false);
    expect(isSubset({ a: undefined }, { a: undefined })).toBe(true);
    expect(isSubset({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(isSubset([{ id: 1 }], [{ id: 2 }, { id: 1, x: 0 }])).toBe(true);
    expect(isSubset([], 'x')).toBe(false);
    expect(isSubset([], [])).toBe(true);
    expect(isSubset(1, 1)).toBe(true);
    expect(isSubset(1, 2)).toBe(false);
    expect(isSubset('1', 1)).toBe(false);
    expect(isSubset(Number.NaN, Number.NaN)).toBe(true);
  });
});

describe('app, template, campaign and user', () => {
  it('app: delivery facts win over the request, and a glob matches', () => {
    const match = { appId: 'sh*' };
    expect(fires(match, request())).toBe(true);
    expect(fires(match, request({ appId: 'other' }))).toBe(false);
    expect(fires(match, request({ appId: null }))).toBe(false);
    expect(fires(match, request({ appId: 'other' }), delivery())).toBe(true);
    expect(fires(match, request(), delivery({ appId: 'other' }))).toBe(false);
    expect(fires(match, undefined, undefined)).toBe(false);
    expect(words(match)).toBe('app "sh*"');
  });

  it('template and campaign: on the request, or on each delivery', () => {
    expect(fires({ templateKey: 'welcome' }, request({ templateKey: 'welcome' }))).toBe(true);
    expect(fires({ templateKey: 'welcome' }, request())).toBe(false);
    expect(fires({ templateKey: 'welcome' }, undefined, delivery())).toBe(true);
    expect(fires({ templateKey: 'welcome' }, request({ templateKey: 'welcome' }), delivery({ templateKey: 'x' }))).toBe(
      false,
    );
    expect(fires({ campaignId: '*' }, request())).toBe(false);
    expect(fires({ campaignId: '*' }, undefined, delivery({ campaignId: 'c1' }))).toBe(true);
    expect(fires({ campaignId: 'c1' }, request({ campaignId: 'c1' }))).toBe(true);
    expect(words({ templateKey: 'welcome', campaignId: 'c*' })).toBe('template "welcome", campaign "c*"');
  });

  it('user: only on a delivery', () => {
    expect(fires({ userId: 'user-*' }, request())).toBe(false);
    expect(fires({ userId: 'user-*' }, undefined, delivery())).toBe(true);
    expect(fires({ userId: 'user-2' }, undefined, delivery())).toBe(false);
    expect(words({ userId: 'user-*' })).toBe('user "user-*"');
  });

  it('an empty match fires on everything and reads "any request"; several fields all must hold', () => {
    expect(buildMatchers({})).toEqual([]);
    expect(words({})).toBe('any request');
    const match = { method: 'POST', appId: 'shop', userId: 'user-1' };
    expect(words(match)).toBe('POST on any path, app "shop", user "user-1"');
    expect(fires(match, request(), delivery())).toBe(true);
    expect(fires(match, request(), delivery({ userId: 'user-2' }))).toBe(false);
  });
});
