/**
 * The scenario engine without HTTP: matchers, counters (times/after), seeded probability,
 * explanations, reset, and per-layer counters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createScenarioEngine } from '../../src/scenario-engine/engine.js';
import type { FaultResponder } from '../../src/scenario-engine/fault-kinds.js';
import { normalisePath } from '../../src/domain/api-path.js';
import { isSubset, rulePath } from '../../src/scenario-engine/match.js';
import type { RequestFacts } from '../../src/scenario-engine/match.js';
import { createRandom } from '../../src/platform/random.js';
import { ScenarioSchema } from '../../src/scenario-engine/load-scenarios.js';

const facts = (over: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'POST',
  path: '/api/campaigns/upload',
  appId: 'app-1',
  headers: {},
  body: undefined,
  templateKey: null,
  campaignId: null,
  ...over,
});
const engineWith = (raw: object, seed = 7) => {
  const engine = createScenarioEngine({ random: createRandom(seed) });
  const scenario = ScenarioSchema.parse(raw);
  engine.load(scenario, 'test');
  engine.setActive([scenario.name]);
  return engine;
};
const outage = {
  name: 'upload-outage',
  rules: [
    { match: { method: 'POST', path: '/api/campaigns/upload' }, fault: { error: 'ERR_OPERATION_FAILED' }, times: 2 },
  ],
};

describe('matchers', () => {
  it('normalises the production prefix to the /api form', () => {
    expect(normalisePath('/v3/business-messaging/api/campaigns/')).toBe('/api/campaigns');
    expect(normalisePath('/api')).toBe('/api');
    expect(normalisePath('/v3/business-messaging/api')).toBe('/api');
    expect(normalisePath('/api//')).toBe('/api');
    expect(normalisePath('/')).toBe('/');
    // Only a leading production prefix, and only before /api.
    expect(normalisePath('/x/v3/business-messaging/api/send')).toBe('/x/v3/business-messaging/api/send');
    expect(normalisePath('/v3/business-messaging/apis')).toBe('/v3/business-messaging/apis');
  });

  it('normalises any path as the two rules written as regular expressions do', () => {
    const byRules = (path: string) => {
      const stripped = path.replace(/^\/v3\/business-messaging(?=\/api(\/|$))/, '');
      return stripped.length > 1 ? stripped.replace(/\/+$/, '') : stripped;
    };
    const part = fc.constantFrom('/', '//', 'v3', 'business-messaging', 'api', 'apis', 'x', '');
    const path = fc.array(part, { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(path, (p) => {
        expect(normalisePath(p)).toBe(byRules(p));
      }),
    );
  });

  it('compiles :param segments and * globs, either API prefix', () => {
    expect(rulePath('/api/campaigns/:id/send')('/api/campaigns/abc/send')).toBe(true);
    expect(rulePath('/api/campaigns/:id/send')('/api/campaigns/send')).toBe(false);
    expect(rulePath('/v3/business-messaging/api/*')('/api/campaigns/x')).toBe(true);
  });

  it('treats body matchers as a deep subset', () => {
    expect(isSubset({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true);
    expect(isSubset({ t: ['x'] }, { t: ['y', 'x'] })).toBe(true);
    expect(isSubset({ a: 1 }, { a: '1' })).toBe(false);
    expect(isSubset({ a: {} }, { a: [] })).toBe(false);
  });
});

/** A fault responder that returns what it was asked to do, for a test to compare. */
const RECORDING: FaultResponder<object> = {
  fail: (error) => ({ fail: error }),
  answer: (...args) => ({ answer: args }),
  drop: () => ({ drop: true }),
};

describe('engine', () => {
  it('applies a rule `times` times and explains the remaining count', () => {
    const engine = engineWith(outage);
    expect(engine.explain()[0]!.rules[0]!.explanation).toBe(
      'rule 1: POST /api/campaigns/upload → fail with ERR_OPERATION_FAILED (2 of 2 left)',
    );
    const first = engine.decide(facts(), []);
    expect(first.fault?.kind).toBe('error');
    expect(first.fault?.apply(RECORDING, 'r', 0)).toMatchObject({ fail: { code: 'ERR_OPERATION_FAILED' } });
    expect(first.applied).toEqual([
      {
        scenario: 'upload-outage',
        index: 1,
        rule: 'rule 1: POST /api/campaigns/upload → fail with ERR_OPERATION_FAILED (1 of 2 left)',
      },
    ]);
    engine.decide(facts(), []);
    expect(engine.decide(facts(), []).fault).toBeNull();
    expect(engine.explain()[0]!.rules[0]).toMatchObject({ remaining: 0, applied: 2, matched: 3 });
  });

  it('does not count requests that do not match', () => {
    const engine = engineWith(outage);
    engine.decide(facts({ method: 'GET' }), []);
    expect(engine.explain()[0]!.rules[0]).toMatchObject({ matched: 0, remaining: 2 });
  });

  it('restores counters on reset', () => {
    const engine = engineWith(outage);
    engine.decide(facts(), []);
    engine.decide(facts(), []);
    engine.reset();
    expect(engine.decide(facts(), []).fault).not.toBeNull();
  });

  it('chains delays and stops at the first final fault', () => {
    const engine = engineWith({
      name: 'chain',
      rules: [
        { fault: { delayMs: 10 } },
        { fault: { delayMs: 5, status: 503 } },
        { fault: { error: 'ERR_BAD_REQUEST' } },
      ],
    });
    const decision = engine.decide(facts(), []);
    expect(decision.delayMs).toBe(15);
    expect(decision.fault?.kind).toBe('status');
    expect(decision.fault?.apply(RECORDING, 'r', 0)).toEqual({ answer: [503, null, {}] });
    // Every rule that applied is named, in order; the last one decided the answer.
    expect(decision.applied.map((a) => [a.scenario, a.index])).toEqual([
      ['chain', 1],
      ['chain', 2],
    ]);
    expect(decision.applied.at(-1)?.rule).toMatch(/^rule 2: any request → wait 5 ms, then answer HTTP 503/);
  });

  it('gives the same probability sequence for the same seed', () => {
    const run = (seed: number) => {
      const engine = engineWith({ name: 'coin', rules: [{ fault: { status: 503 }, probability: 0.3 }] }, seed);
      return Array.from({ length: 50 }, () => (engine.decide(facts(), []).fault ? 1 : 0)).join('');
    };
    expect(run(3)).toBe(run(3));
    expect(run(3)).not.toBe(run(4));
    expect(run(3)).toMatch(/1/);
  });

  it('keeps header-layer counters apart from the global layer', () => {
    const engine = engineWith(outage);
    engine.setActive([]);
    engine.decide(facts(), ['upload-outage']);
    engine.decide(facts(), ['upload-outage']);
    expect(engine.decide(facts(), ['upload-outage']).fault).toBeNull();
    engine.setActive(['upload-outage']);
    expect(engine.decide(facts(), []).fault).not.toBeNull();
    expect(engine.explain()[0]!.rules[0]!.remaining).toBe(1);
  });

  it('answers failDelivery per recipient, with delivery facts winning over request facts', () => {
    const engine = engineWith({
      name: 'sale',
      rules: [{ match: { templateKey: 'sale', campaignId: 'c-*' }, fault: { failDelivery: 'outage' } }],
    });
    const policy = engine.deliveryFaults([], facts({ templateKey: 'other' }));
    expect(policy({ appId: 'a', userId: 'u', templateKey: 'sale', campaignId: 'c-1' })).toEqual({
      reason: 'outage',
      scenario: 'sale',
    });
    expect(policy({ appId: 'a', userId: 'u', templateKey: 'sale', campaignId: null })).toBeNull();
    expect(engine.decide(facts({ templateKey: 'sale', campaignId: 'c-1' }), []).fault).toBeNull();
  });

  it('forRequest: the decision, the delivery policy and the rules applied, from plain facts', () => {
    const engine = engineWith({
      name: 'mixed',
      rules: [
        { match: { path: '/api/campaigns/upload' }, fault: { delayMs: 5 } },
        { match: { userId: 'u-*' }, fault: { failDelivery: 'gone' } },
      ],
    });
    const scope = engine.forRequest(facts(), ['mixed']);
    expect(scope.decision).toMatchObject({ delayMs: 5, fault: null, applied: [{ scenario: 'mixed', index: 1 }] });
    expect(scope.appliedRules().map((r) => r.rule)).toEqual([expect.stringMatching(/^rule 1:/)]);
    const delivery = { appId: 'a', userId: 'u-1', templateKey: 't', campaignId: null };
    expect(scope.deliveryFaults(delivery)).toEqual({ reason: 'gone', scenario: 'mixed' });
    expect(scope.deliveryFaults(delivery)).toEqual({ reason: 'gone', scenario: 'mixed' });
    // The first delivery rule is kept for the journal; later firings are not piled up.
    expect(scope.appliedRules().map((r) => r.rule)).toEqual([
      expect.stringMatching(/^rule 1:/),
      expect.stringMatching(/^rule 2:/),
    ]);
  });

  it('says the delivery policy is idle exactly when no applying scenario has a failDelivery rule', () => {
    const engine = engineWith(outage); // active, but only a request rule
    expect(engine.deliveryFaults([]).idle?.('app-1')).toBe(true);
    engine.load(ScenarioSchema.parse({ name: 'gone', rules: [{ match: {}, fault: { failDelivery: 'x' } }] }), 'test');
    const viaHeader = engine.deliveryFaults(['gone']);
    const global = engine.deliveryFaults([]);
    expect(viaHeader.idle?.('app-1')).toBe(false);
    expect(global.idle?.('app-1')).toBe(true);
    // Read when asked: a scheduled campaign's policy sees the scenarios active when it runs.
    engine.setActive(['upload-outage', 'gone']);
    expect(global.idle?.('app-1')).toBe(false);
    engine.setActive([]);
    expect(global.idle?.('app-1')).toBe(true);
  });

  it("asks the sending app's own active set, also for a policy made without a request (a resumed campaign)", () => {
    const engine = engineWith(outage);
    engine.load(ScenarioSchema.parse({ name: 'gone', rules: [{ match: {}, fault: { failDelivery: 'x' } }] }), 'test');
    engine.setActive([]);
    engine.setActive(['gone'], 'app-2');
    const policy = engine.deliveryFaults([]);
    expect(policy.idle?.('app-1')).toBe(true);
    expect(policy.idle?.('app-2')).toBe(false);
    expect(policy({ appId: 'app-2', userId: 'u', templateKey: 't', campaignId: 'c' })).toEqual({
      reason: 'x',
      scenario: 'gone',
    });
  });

  it('does not apply request-matching delivery rules without request facts', () => {
    const engine = engineWith({
      name: 'p',
      rules: [{ match: { path: '/api/notifications/send' }, fault: { failDelivery: 'x' } }],
    });
    expect(engine.deliveryFaults([])({ appId: 'a', userId: 'u', templateKey: 't', campaignId: null })).toBeNull();
  });

  it('starts a changed definition with fresh counters and keeps counters of an identical reload', () => {
    const engine = engineWith(outage);
    engine.decide(facts(), []);
    engine.load(ScenarioSchema.parse(outage), 'again');
    expect(engine.explain()[0]!.rules[0]!.remaining).toBe(1);
    engine.load(ScenarioSchema.parse({ ...outage, description: 'changed' }), 'again');
    expect(engine.explain()[0]!.rules[0]!.remaining).toBe(2);
  });

  it('needs the request body exactly when a rule matches on the body, the template key or the campaign', () => {
    const needs = (match: object) =>
      engineWith({ name: 'n', rules: [{ match, fault: { status: 418 } }] }).needsBody([], 'app-1');
    expect(needs({ body: { mode: 'batch' } })).toBe(true);
    expect(needs({ templateKey: 'welcome' })).toBe(true);
    expect(needs({ campaignId: 'c-*' })).toBe(true);
    expect(needs({ method: 'POST', path: '/api/*', appId: 'app-1', headers: { 'x-a': '1' } })).toBe(false);
  });

  it('fires a request rule whose only matcher is the template key on that key alone', () => {
    const engine = engineWith({ name: 't', rules: [{ match: { templateKey: 'sale' }, fault: { status: 418 } }] });
    expect(engine.decide(facts({ templateKey: 'other' }), []).fault).toBeNull();
    expect(engine.decide(facts(), []).fault).toBeNull();
    expect(engine.decide(facts({ templateKey: 'sale' }), []).fault).not.toBeNull();
  });

  it('fires a rule of probability 1 every time and one of probability 0 never', () => {
    const fires = (probability: number) => {
      const engine = engineWith({ name: 'p', rules: [{ fault: { status: 503 }, probability }] });
      return Array.from({ length: 20 }, () => engine.decide(facts(), []).fault !== null);
    };
    expect(fires(1)).toEqual(Array(20).fill(true));
    expect(fires(0)).toEqual(Array(20).fill(false));
  });

  it('fires a rule when the draw is below its probability, not when it equals it', () => {
    // Draws are in [0, 1): probability 0 never fires, even on a draw of exactly 0.
    const fired = (probability: number, draws: number[]) => {
      const left = [...draws];
      const engine = createScenarioEngine({ random: { next: () => left.shift()! } });
      engine.load(ScenarioSchema.parse({ name: 'edge', rules: [{ fault: { status: 503 }, probability }] }), 't');
      engine.setActive(['edge']);
      return draws.map(() => engine.decide(facts({ appId: null }), []).fault !== null);
    };
    expect(fired(0, [0])).toEqual([false]);
    expect(fired(0.25, [0.25, 0.2499])).toEqual([false, true]);
  });

  it("draws an app's probability from that app's own source, and a request of no app from the engine's", () => {
    const coin = ScenarioSchema.parse({ name: 'coin', rules: [{ fault: { status: 503 }, probability: 0.5 }] });
    const make = () => {
      const engine = createScenarioEngine({
        random: createRandom(1),
        randomFor: (appId) => createRandom(appId.length),
      });
      engine.load(coin, 'test');
      engine.setActive(['coin']);
      return engine;
    };
    const draws = (seed: number) => {
      const random = createRandom(seed);
      return Array.from({ length: 30 }, () => random.next() < 0.5);
    };
    const fired = (engine: ReturnType<typeof make>, appId: string | null) =>
      engine.decide(facts({ appId }), []).fault !== null;
    const engine = make();
    // Interleaved: each app's answers follow its own source, untouched by the other's draws.
    const answers = { 'app-1': [] as boolean[], 'app-22': [] as boolean[], none: [] as boolean[] };
    for (let i = 0; i < 30; i++) {
      answers['app-1'].push(fired(engine, 'app-1'));
      answers['app-22'].push(fired(engine, 'app-22'));
      answers.none.push(fired(engine, null));
    }
    expect(answers['app-1']).toEqual(draws('app-1'.length));
    expect(answers['app-22']).toEqual(draws('app-22'.length));
    expect(answers.none).toEqual(draws(1));
  });

  it('is not idle while a scenario that has a failDelivery rule among request rules applies', () => {
    const engine = engineWith({
      name: 'both',
      rules: [
        { match: { path: '/api/campaigns/upload' }, fault: { delayMs: 5 } },
        { match: { userId: 'u-*' }, fault: { failDelivery: 'gone' } },
      ],
    });
    expect(engine.deliveryFaults([]).idle?.('app-1')).toBe(false);
  });

  it('lists each delivery rule that fired once in the rules applied, told apart by scenario and index', () => {
    const engine = engineWith({
      name: 'one',
      rules: [
        { match: { userId: 'a-*' }, fault: { failDelivery: 'first' } },
        { match: { userId: 'b-*' }, fault: { failDelivery: 'second' } },
      ],
    });
    engine.load(
      ScenarioSchema.parse({ name: 'two', rules: [{ match: { userId: 'c-*' }, fault: { failDelivery: 'third' } }] }),
      'test',
    );
    engine.setActive(['one', 'two']);
    const scope = engine.forRequest(facts(), []);
    const seen: string[][] = [];
    scope.followRules((rules) => seen.push(rules.map((r) => `${r.scenario} ${r.index}`)));
    for (const userId of ['a-1', 'c-1', 'a-2', 'b-1', 'c-2'])
      scope.deliveryFaults({ appId: 'app-1', userId, templateKey: 't', campaignId: null });
    expect(scope.appliedRules().map((r) => `${r.scenario} ${r.index}`)).toEqual(['one 1', 'two 1', 'one 2']);
    expect(seen).toEqual([['one 1'], ['one 1', 'two 1'], ['one 1', 'two 1', 'one 2']]);
  });

  it('needs the body when any rule of any applying scenario reads it', () => {
    const engine = engineWith({
      name: 'mixed',
      rules: [
        { match: { method: 'GET' }, fault: { status: 418 } },
        { match: { body: { mode: 'batch' } }, fault: { status: 418 } },
      ],
    });
    engine.load(
      ScenarioSchema.parse({ name: 'plain', rules: [{ match: { method: 'PUT' }, fault: { status: 418 } }] }),
      't',
    );
    engine.setActive(['plain', 'mixed']);
    expect(engine.needsBody([], 'app-1')).toBe(true);
    engine.setActive(['plain']);
    expect(engine.needsBody([], 'app-1')).toBe(false);
    expect(engine.needsBody(['mixed'], 'app-1')).toBe(true);
  });

  it('explains after, probability and times in words, and counts down what is left', () => {
    const engine = engineWith({
      name: 'words',
      rules: [
        { fault: { status: 503 }, after: 1, probability: 0.5, times: 2 },
        { fault: { status: 504 }, after: 2 },
        { fault: { status: 502 } },
      ],
    });
    const rules = () => engine.explain()[0]!.rules;
    expect(rules().map((r) => [r.explanation, r.remaining])).toEqual([
      [
        'rule 1: any request → answer HTTP 503 (raw body) ' +
          '(2 of 2 left; skips the first 1 match, 0 seen; probability 0.5)',
        2,
      ],
      ['rule 2: any request → answer HTTP 504 (raw body) (skips the first 2 matches, 0 seen)', null],
      ['rule 3: any request → answer HTTP 502 (raw body)', null],
    ]);
    engine.decide(facts(), []);
    expect(rules()[1]!.explanation).toBe(
      'rule 2: any request → answer HTTP 504 (raw body) (skips the first 2 matches, 1 seen)',
    );
  });

  it("lists the scenarios an app's requests named in a header for that app only", () => {
    const engine = engineWith(outage);
    engine.setActive([]);
    engine.decide(facts({ appId: 'app-1' }), ['upload-outage']);
    expect(engine.explainHeaderActivated('app-1').map((v) => v.name)).toEqual(['upload-outage']);
    expect(engine.explainHeaderActivated('app-2')).toEqual([]);
    expect(engine.explainHeaderActivated().map((v) => v.name)).toEqual(['upload-outage']);
  });

  it('answers unknown names, lists the loaded ones in a refusal, and moves an app to its own set and back', () => {
    const changed: string[] = [];
    const engine = createScenarioEngine({ random: createRandom(1), onAppChange: (appId) => changed.push(appId) });
    engine.load(ScenarioSchema.parse(outage), 'outage.json');
    expect(engine.get('nope')).toBeUndefined();
    expect(engine.sourceOf('nope')).toBeUndefined();
    expect(engine.sourceOf('upload-outage')).toBe('outage.json');
    expect(() =>
      engine.requireLoaded(['upload-outage', 'nope'], (unknown, loaded) => new Error(`${unknown} of ${loaded}`)),
    ).toThrow('nope of upload-outage');
    expect(engine.hasActive('app-1')).toBe(false);
    engine.setActive(['upload-outage'], 'app-1');
    expect(engine.ownActive('app-1')).toEqual(['upload-outage']);
    expect(engine.active('app-1')).toEqual(['upload-outage']);
    expect(engine.active()).toEqual([]);
    expect(engine.hasActive('app-1')).toBe(true);
    expect(engine.useGlobal('app-1')).toBe(true);
    expect(engine.useGlobal('app-1')).toBe(false);
    expect(engine.ownActive('app-1')).toBeNull();
    expect(changed).toEqual(['app-1', 'app-1']);
  });

  it("resets one app's own and header counters and leaves the global ones and other apps' as they were", () => {
    const engine = engineWith(outage);
    engine.setActive(['upload-outage'], 'app-1');
    engine.decide(facts({ appId: 'app-1' }), []);
    engine.decide(facts({ appId: 'app-1' }), []);
    engine.decide(facts({ appId: 'app-2' }), []);
    engine.decide(facts({ appId: null }), ['upload-outage']);
    engine.decide(facts({ appId: 'app-1' }), ['upload-outage']);
    const remaining = (appId?: string) => engine.explain(appId)[0]!.rules[0]!.remaining;
    const headerRemaining = (appId?: string) => engine.explainHeaderActivated(appId).map((v) => v.rules[0]!.remaining);
    expect([remaining('app-1'), remaining(), headerRemaining('app-1'), headerRemaining()]).toEqual([0, 1, [1], [0]]);
    // Without an app, the header counters are summed over every app.
    expect(engine.explainHeaderActivated()[0]!.rules[0]!.matched).toBe(2);
    engine.reset('app-1');
    expect([remaining('app-1'), remaining(), headerRemaining('app-1'), headerRemaining()]).toEqual([2, 1, [], [1]]);
  });

  it('keeps the other active scenarios when one is removed', () => {
    const engine = engineWith(outage);
    engine.load(ScenarioSchema.parse({ name: 'other', rules: [{ fault: { status: 503 } }] }), 't');
    engine.setActive(['upload-outage', 'other']);
    engine.remove('upload-outage');
    expect(engine.active()).toEqual(['other']);
  });

  it("snapshots and restores every app's scenario state, or one app's alone", () => {
    const coin = { name: 'coin', rules: [{ fault: { status: 503 }, probability: 0.5, times: 50 }] };
    const make = () => {
      const engine = createScenarioEngine({
        random: createRandom(1),
        randomFor: (appId) => createRandom(appId.length),
      });
      engine.load(ScenarioSchema.parse(coin), 't');
      engine.load(ScenarioSchema.parse({ ...outage, name: 'ghost' }), 't');
      return engine;
    };
    const fire = (engine: ReturnType<typeof make>, appId: string | null, header: string[] = []) =>
      Array.from({ length: 6 }, () => (engine.decide(facts({ appId }), header).fault ? 1 : 0)).join('');
    const first = make();
    first.setActive(['coin', 'ghost'], 'app-1');
    fire(first, 'app-1');
    fire(first, 'app-22', ['coin']);
    fire(first, null, ['coin']);
    const all = first.snapshot();
    const one = first.snapshot('app-1');
    expect(Object.keys(one.headerActivated)).toEqual([]);
    expect(one.draws.shared).toBeNull();
    expect(Object.keys(all.headerActivated).sort()).toEqual(['', 'app-22']);

    const second = make();
    second.remove('ghost');
    second.restore(all);
    expect(second.ownActive('app-1')).toEqual(['coin']);
    expect(second.snapshot()).toEqual({ ...all, apps: { 'app-1': ['coin'] } });
    // The draws go on where they stood: each source gives what the first engine's would next.
    expect([fire(second, 'app-1'), fire(second, null, ['coin'])]).toEqual([
      fire(first, 'app-1'),
      fire(first, null, ['coin']),
    ]);

    const third = make();
    fire(third, null, ['coin']);
    const before = third.snapshot();
    third.restore(one, 'app-1');
    const after = third.snapshot();
    expect(third.ownActive('app-1')).toEqual(['coin', 'ghost']);
    expect(after.headerActivated).toEqual(before.headerActivated);
    expect(after.draws.shared).toEqual(before.draws.shared);
    expect(after.counters).not.toEqual(before.counters);
    expect(third.snapshot('app-1').counters).toEqual(one.counters);

    // One app's part of a whole snapshot: the others' header names and the shared draws stay.
    const fourth = make();
    fire(fourth, null, ['ghost']);
    const untouched = fourth.snapshot();
    expect(untouched.draws.shared).not.toEqual(all.draws.shared);
    fourth.restore(all, 'app-22');
    expect(fourth.snapshot().headerActivated).toEqual({ '': ['ghost'], 'app-22': ['coin'] });
    expect(fourth.snapshot().draws.shared).toEqual(untouched.draws.shared);
    expect(fourth.snapshot().counters).not.toEqual(untouched.counters);

    // Only the parts given are put back.
    const fifth = make();
    fifth.setActive(['coin'], 'app-3');
    fifth.restore({ counters: all.counters });
    expect(fifth.ownActive('app-3')).toEqual(['coin']);
    expect(fifth.snapshot().counters).toEqual(all.counters);
    expect(fifth.snapshot().headerActivated).toEqual({});
    fifth.restore({ headerActivated: all.headerActivated });
    expect(fifth.snapshot().counters).toEqual(all.counters);
    expect(fifth.snapshot().headerActivated).toEqual(all.headerActivated);
  });

  it('deactivates a removed scenario', () => {
    const engine = engineWith(outage);
    expect(engine.remove('upload-outage')).toBe(true);
    expect(engine.active()).toEqual([]);
    expect(engine.remove('upload-outage')).toBe(false);
  });
});

describe('idleScope', () => {
  it('answers as forRequest does while nothing is active, and is undefined while a scenario is', () => {
    const engine = engineWith(outage);
    expect(engine.idleScope('app-1')).toBeUndefined();
    engine.setActive([]);
    const idle = engine.idleScope('app-1')!;
    const asked = engine.forRequest(facts(), []);
    expect(idle.decision).toEqual(asked.decision);
    expect(idle.appliedRules()).toEqual(asked.appliedRules());
    expect(idle.deliveryFaults({ appId: 'app-1', userId: 'u1', templateKey: 't', campaignId: null })).toBeNull();
    expect(idle.deliveryFaults.idle?.('app-1')).toBe(true);
  });
});
