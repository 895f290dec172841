/**
 * The scenario file schema: every bad field is reported with the rule index (1-based)
 * and the field path (docs/reference.md#scenarios "a bad scenario file is refused with its name, the rule
 * index and the field").
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario-engine/load-scenarios.js';

const ok = { match: { path: '/api/notifications/send' }, fault: { error: 'ERR_OPERATION_FAILED' } };
const withRule = (bad: object) => ({ name: 'demo', rules: [ok, bad] });
const problemsOf = (raw: unknown): string[] => {
  const result = parseScenario(raw, 'demo.json');
  if ('scenario' in result) throw new Error('expected problems');
  return result.problems;
};

describe('scenario schema', () => {
  it('accepts a valid scenario with defaults filled in', () => {
    const result = parseScenario({ name: 'demo', rules: [{ fault: { delayMs: 10 } }] }, 'demo.json');
    expect(result).toEqual({ scenario: { name: 'demo', rules: [{ match: {}, fault: { delayMs: 10 }, after: 0 }] } });
  });

  const cases: [string, object, string][] = [
    ['unknown error code', { ...ok, fault: { error: 'ERR_NOPE' } }, 'fault.error'],
    ['no fault kind', { ...ok, fault: {} }, 'fault'],
    ['two final fault kinds', { ...ok, fault: { error: 'ERR_BAD_REQUEST', drop: true } }, 'fault.drop'],
    ['raw body without status', { ...ok, fault: { body: { a: 1 }, delayMs: 1 } }, 'fault.body'],
    ['raw headers without status', { ...ok, fault: { headers: { a: 'b' }, delayMs: 1 } }, 'fault.headers'],
    ['status out of range', { ...ok, fault: { status: 99 } }, 'fault.status'],
    ['negative delay', { ...ok, fault: { delayMs: -1 } }, 'fault.delayMs'],
    [
      'rate limit without retryAfterSec',
      { ...ok, fault: { rateLimit: { limit: 5 } } },
      'fault.rateLimit.retryAfterSec',
    ],
    [
      'rate limit with zero limit',
      { ...ok, fault: { rateLimit: { retryAfterSec: 1, limit: 0 } } },
      'fault.rateLimit.limit',
    ],
    [
      'a raw header name that is not a token',
      { ...ok, fault: { status: 200, headers: { 'x a': 'b' } } },
      'fault.headers.x a',
    ],
    [
      'a raw content-length',
      { ...ok, fault: { status: 200, headers: { 'Content-Length': '1' } } },
      'fault.headers.Content-Length',
    ],
    [
      'a raw transfer-encoding',
      { ...ok, fault: { status: 200, headers: { 'transfer-encoding': 'chunked' } } },
      'fault.headers.transfer-encoding',
    ],
    [
      'a raw header value with NUL',
      { ...ok, fault: { status: 200, headers: { 'x-a': 'a\u0000' } } },
      'fault.headers.x-a',
    ],
    [
      'a raw header value with a line break',
      { ...ok, fault: { status: 200, headers: { 'x-a': 'a\r\nx-b: c' } } },
      'fault.headers.x-a',
    ],
    [
      'a raw header value above U+00FF',
      { ...ok, fault: { status: 200, headers: { 'x-a': '€' } } },
      'fault.headers.x-a',
    ],
    ['drop that is not true', { ...ok, fault: { drop: false } }, 'fault.drop'],
    ['empty failDelivery reason', { ...ok, fault: { failDelivery: '' } }, 'fault.failDelivery'],
    ['message without error', { ...ok, fault: { status: 500, message: 'x' } }, 'fault.message'],
    ['unknown fault field', { ...ok, fault: { error: 'ERR_BAD_REQUEST', colour: 1 } }, 'fault.colour'],
    ['path without leading slash', { ...ok, match: { path: 'api/x' } }, 'match.path'],
    ['headers that are not strings', { ...ok, match: { headers: { a: 1 } } }, 'match.headers.a'],
    ['empty method', { ...ok, match: { method: '' } }, 'match.method'],
    ['unknown match field', { ...ok, match: { query: 'x' } }, 'match.query'],
    ['userId with a request fault', { ...ok, match: { userId: 'u*' } }, 'match.userId'],
    ['times of zero', { ...ok, times: 0 }, 'times'],
    ['fractional times', { ...ok, times: 1.5 }, 'times'],
    ['negative after', { ...ok, after: -1 }, 'after'],
    ['probability above 1', { ...ok, probability: 1.5 }, 'probability'],
    ['missing fault', { match: {} }, 'fault'],
    ['unknown rule field', { ...ok, weight: 3 }, 'weight'],
  ];
  it.each(cases)('reports %s with rule 2 and the field', (_what, bad, field) => {
    const problems = problemsOf(withRule(bad));
    expect(
      problems.some((p) => p.startsWith(`demo.json: rule 2, field "${field}"`)),
      problems.join('\n'),
    ).toBe(true);
  });

  it('accepts raw headers Node can send: Latin-1 values, tabs, any token name', () => {
    const raw = {
      status: 200,
      body: 'x',
      headers: { "x-a!#$%&'*+.^_`|~": 'caf\u00e9\tok', 'content-type': 'text/plain' },
    };
    expect(parseScenario({ name: 'demo', rules: [{ fault: raw }] }, 'demo.json')).toHaveProperty('scenario');
  });

  it('words a refused header name in its own terms, not as a bad record key', () => {
    const problems = problemsOf(withRule({ ...ok, fault: { status: 200, headers: { 'content-length': '1' } } }));
    expect(problems.join('\n')).toMatch(/field "fault.headers.content-length": is set by the emulator from the body/);
    expect(problems.join('\n')).not.toMatch(/Invalid key/);
  });

  it('reports a bad name, empty rules and unknown top-level fields by field', () => {
    expect(problemsOf({ name: 'a b', rules: [ok] })[0]).toMatch(/^demo\.json: field "name"/);
    expect(problemsOf({ name: 'a', rules: [] })[0]).toMatch(/^demo\.json: field "rules": must hold at least one rule/);
    expect(problemsOf({ name: 'a', rules: [ok], extra: 1 })[0]).toMatch(
      /^demo\.json: field "extra": unknown key "extra"/,
    );
    expect(problemsOf([ok])[0]).toMatch(/^demo\.json: field "\(root\)"/);
  });

  it('names a mistyped key, the closest allowed key and the allowed list', () => {
    expect(problemsOf(withRule({ ...ok, tiems: 2 }))).toContain(
      'demo.json: rule 2, field "tiems": unknown key "tiems" (did you mean "times"?); ' +
        'allowed: description, match, fault, times, after, probability',
    );
    expect(problemsOf(withRule({ ...ok, match: { methd: 'POST' } }))[0]).toMatch(
      /^demo\.json: rule 2, field "match\.methd": unknown key "methd" \(did you mean "method"\?\); allowed: method,/,
    );
    expect(problemsOf(withRule({ ...ok, fault: { eror: 'ERR_BAD_REQUEST' } }))[0]).toMatch(
      /field "fault\.eror": unknown key "eror" \(did you mean "error"\?\)/,
    );
    // Nothing close: no guess.
    expect(problemsOf(withRule({ ...ok, zzzzzz: 1 }))[0]).toMatch(/field "zzzzzz": unknown key "zzzzzz"; allowed: /);
  });

  it('keys details by the JSON path of the field', () => {
    const result = parseScenario(withRule({ ...ok, fault: { error: 'ERR_NOPE' } }), 'x');
    expect('details' in result && Object.keys(result.details)).toEqual(['rules.1.fault.error']);
  });
});
