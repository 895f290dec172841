/**
 * The scenario engine's state kept per app, module by module: each app's own active set and
 * random draws (app-activation.ts), the rule counters per layer (counters.ts), and the state
 * as plain data and back, of every app or of one (state.ts).
 */
import { describe, expect, it } from 'vitest';
import type { RandomSource } from '../../src/domain/ports.js';
import { createRandom } from '../../src/platform/random.js';
import { AppActivation } from '../../src/scenario-engine/app-activation.js';
import { RuleCounters, type Layer } from '../../src/scenario-engine/counters.js';
import { ofApp, ScenarioSets } from '../../src/scenario-engine/scenario-sets.js';
import { scenarioState } from '../../src/scenario-engine/state.js';
import { ScenarioSchema } from '../../src/scenario-engine/load-scenarios.js';

/** An app's own seeded source: the seed is the sum of its id's character codes. */
const seedOf = (appId: string) => [...appId].reduce((sum, ch) => sum + ch.charCodeAt(0), 0);
const seeded = (appId: string) => createRandom(seedOf(appId));
/** A source that cannot say where it stands nor go back to a state. */
const plain = (seed: number): RandomSource => {
  const { next } = createRandom(seed);
  return { next };
};
const draws = (random: RandomSource, n: number) => Array.from({ length: n }, () => random.next());

describe('AppActivation', () => {
  it('answers no own set while no app has one, for no app, and for an app without one', () => {
    const apps = new AppActivation(seeded);
    expect(apps.setOf('a')).toBeUndefined();
    expect(apps.setOf(null)).toBeUndefined();
    apps.set('a', ['x', 'y', 'x']);
    expect(apps.setOf('a')).toEqual(['x', 'y']);
    expect(apps.setOf('b')).toBeUndefined();
    expect(apps.setOf(null)).toBeUndefined();
    apps.set('b', []);
    expect(apps.setOf('b')).toEqual([]);
    expect(apps.clear('a')).toBe(true);
    expect(apps.clear('a')).toBe(false);
    expect(apps.setOf('a')).toBeUndefined();
    expect(apps.setOf('b')).toEqual([]);
  });

  it('drops a scenario from the sets that name it, and reports only those apps as changed', () => {
    const apps = new AppActivation(seeded);
    apps.set('a', ['x', 'y']);
    apps.set('b', ['y']);
    apps.set('c', ['z']);
    expect(apps.drop('x')).toEqual(['a']);
    expect(apps.setOf('a')).toEqual(['y']);
    expect(apps.setOf('b')).toEqual(['y']);
    expect(apps.setOf('c')).toEqual(['z']);
    expect(apps.drop('y')).toEqual(['a', 'b']);
    expect(apps.setOf('a')).toEqual([]);
    expect(apps.setOf('b')).toEqual([]);
    expect(apps.setOf('c')).toEqual(['z']);
    expect(apps.drop('unknown')).toEqual([]);
  });

  it('clears every app back to the global set, naming the apps that had one', () => {
    const apps = new AppActivation(seeded);
    expect(apps.clearAll()).toEqual([]);
    apps.set('a', ['x']);
    apps.set('b', []);
    expect(apps.clearAll()).toEqual(['a', 'b']);
    expect(apps.setOf('a')).toBeUndefined();
    expect(apps.snapshot()).toStrictEqual({});
  });

  it('makes each app its own source once, and restarts one app or every app', () => {
    const made: string[] = [];
    const apps = new AppActivation((appId) => (made.push(appId), seeded(appId)));
    const firstA = draws(apps.random('a'), 3);
    const firstB = draws(apps.random('b'), 3);
    expect(firstA).toEqual(draws(seeded('a'), 3));
    expect(apps.random('a')).toBe(apps.random('a'));
    expect(made).toEqual(['a', 'b']);

    apps.restartDraws('a');
    expect(draws(apps.random('a'), 3)).toEqual(firstA);
    // b goes on where it stood.
    expect(draws(apps.random('b'), 3)).toEqual(draws(seeded('b'), 6).slice(3));
    expect(made).toEqual(['a', 'b', 'a']);

    apps.restartDraws();
    expect(draws(apps.random('a'), 3)).toEqual(firstA);
    expect(draws(apps.random('b'), 3)).toEqual(firstB);
    expect(made).toEqual(['a', 'b', 'a', 'a', 'b']);
  });

  it('snapshots every own set or one app’s, as copies', () => {
    const apps = new AppActivation(seeded);
    apps.set('a', ['x']);
    apps.set('b', ['y', 'z']);
    const all = apps.snapshot();
    expect(all).toStrictEqual({ a: ['x'], b: ['y', 'z'] });
    expect(apps.snapshot('b')).toStrictEqual({ b: ['y', 'z'] });
    expect(apps.snapshot('c')).toStrictEqual({});
    all.a!.push('changed');
    expect(apps.setOf('a')).toEqual(['x']);
  });

  it('restores every own set, or only one app’s leaving the others as they are', () => {
    const apps = new AppActivation(seeded);
    apps.set('a', ['x']);
    apps.set('b', ['y']);
    apps.restore({ b: ['z', 'z'], c: ['x'] });
    expect(apps.snapshot()).toStrictEqual({ b: ['z'], c: ['x'] });

    apps.restore({ a: ['y'], b: ['x'] }, 'a');
    expect(apps.snapshot()).toStrictEqual({ b: ['z'], c: ['x'], a: ['y'] });
    // One app restored from a snapshot that does not hold it: back to the global set.
    apps.restore({ b: ['x'] }, 'c');
    expect(apps.snapshot()).toStrictEqual({ b: ['z'], a: ['y'] });
  });

  it('tells where each drawn source stands, of every app or one, leaving out a source that cannot say', () => {
    const apps = new AppActivation((appId) => (appId === 'mute' ? plain(1) : seeded(appId)));
    expect(apps.drawStates()).toStrictEqual({});
    apps.random('a').next();
    apps.random('b').next();
    apps.random('mute').next();
    const a = seeded('a');
    a.next();
    const b = seeded('b');
    b.next();
    expect(apps.drawStates()).toStrictEqual({ a: a.state(), b: b.state() });
    expect(apps.drawStates('b')).toStrictEqual({ b: b.state() });
    expect(apps.drawStates('mute')).toStrictEqual({});
  });

  it('resumes every app’s draws or one app’s from saved states, restarting the rest of them', () => {
    const apps = new AppActivation((appId) => (appId === 'mute' ? plain(1) : seeded(appId)));
    draws(apps.random('a'), 2);
    draws(apps.random('b'), 2);
    const saved = apps.drawStates();
    const nextA = draws(apps.random('a'), 2);
    const nextB = draws(apps.random('b'), 2);

    apps.resumeDraws(saved);
    expect(draws(apps.random('a'), 2)).toEqual(nextA);
    expect(draws(apps.random('b'), 2)).toEqual(nextB);

    // Only b: a goes on, b is put back.
    const afterA = draws(apps.random('a'), 1);
    apps.resumeDraws({ ...saved, a: 12345 }, 'b');
    expect(draws(apps.random('b'), 2)).toEqual(nextB);
    const a = seeded('a');
    // Two draws, two again after the resume put it back to the second, then one.
    expect(afterA).toEqual(draws(a, 5).slice(4));
    expect(draws(apps.random('a'), 1)).toEqual(draws(a, 1));

    // An app named in no state restarts; one whose source cannot resume starts over, and no error.
    apps.resumeDraws({ mute: 5 });
    expect(draws(apps.random('a'), 2)).toEqual(draws(seeded('a'), 2));
    expect(draws(apps.random('mute'), 1)).toEqual(draws(plain(1), 1));
    apps.resumeDraws({ mute: 5 }, 'mute');
    expect(draws(apps.random('mute'), 1)).toEqual(draws(plain(1), 1));
  });
});

describe('RuleCounters', () => {
  const counted = () => {
    const counters = new RuleCounters();
    Object.assign(counters.of('global', 'busy', 0), { matched: 1, applied: 1 });
    Object.assign(counters.of('app:a', 'busy', 0), { matched: 2, applied: 1 });
    Object.assign(counters.of('header:a', 'busy', 0), { matched: 4, applied: 2 });
    Object.assign(counters.of('header:b', 'busy', 0), { matched: 8, applied: 4 });
    Object.assign(counters.of('global', 'busy', 1), { matched: 16, applied: 8 });
    // A name that starts another's, and one that ends another's.
    Object.assign(counters.of('global', 'bus', 0), { matched: 32, applied: 16 });
    Object.assign(counters.of('global', 'busy-2', 0), { matched: 64, applied: 32 });
    Object.assign(counters.of('app:a', 'y', 0), { matched: 128, applied: 64 });
    return counters;
  };

  it('keeps one counter per layer, scenario and rule', () => {
    const counters = new RuleCounters();
    expect(counters.peek('global', 'busy', 0)).toBeUndefined();
    const c = counters.of('global', 'busy', 0);
    c.matched++;
    expect(counters.of('global', 'busy', 0)).toBe(c);
    expect(counters.peek('global', 'busy', 0)).toEqual({ matched: 1, applied: 0 });
    expect(counters.peek('app:a', 'busy', 0)).toBeUndefined();
    expect(counters.peek('global', 'busy', 1)).toBeUndefined();
    expect(counters.peek('global', 'bus', 0)).toBeUndefined();
    expect(counters.of('app:a', 'busy', 0)).toEqual({ matched: 0, applied: 0 });
  });

  it('sums one rule over the layers picked, and no other scenario or rule', () => {
    const counters = counted();
    expect(counters.sum('busy', 0, () => true)).toEqual({ matched: 15, applied: 8 });
    expect(counters.sum('busy', 0, (layer) => layer.startsWith('header:'))).toEqual({ matched: 12, applied: 6 });
    expect(counters.sum('busy', 0, (layer) => layer === 'app:a')).toEqual({ matched: 2, applied: 1 });
    expect(counters.sum('busy', 0, ofApp('a'))).toEqual({ matched: 6, applied: 3 });
    expect(counters.sum('busy', 1, () => true)).toEqual({ matched: 16, applied: 8 });
    expect(counters.sum('bus', 0, () => true)).toEqual({ matched: 32, applied: 16 });
    expect(counters.sum('none', 0, () => true)).toEqual({ matched: 0, applied: 0 });
  });

  it('forgets one scenario’s counts, not those of a scenario whose name starts or ends with it', () => {
    const counters = counted();
    counters.clearScenario('bus');
    expect(counters.peek('global', 'bus', 0)).toBeUndefined();
    expect(counters.sum('busy', 0, () => true)).toEqual({ matched: 15, applied: 8 });
    expect(counters.sum('busy-2', 0, () => true)).toEqual({ matched: 64, applied: 32 });
    counters.clearScenario('busy');
    expect(counters.snapshot()).toEqual([
      ['global', 'busy-2', 0, 64, 32],
      ['app:a', 'y', 0, 128, 64],
    ]);
  });

  it('snapshots and clears the layers picked, or all', () => {
    const counters = counted();
    const layers = (rows: [Layer, ...unknown[]][]) => rows.map(([layer, name, index]) => `${layer} ${name} ${index}`);
    expect(layers(counters.snapshot())).toEqual([
      'global busy 0',
      'app:a busy 0',
      'header:a busy 0',
      'header:b busy 0',
      'global busy 1',
      'global bus 0',
      'global busy-2 0',
      'app:a y 0',
    ]);
    expect(counters.snapshot(ofApp('a'))).toEqual([
      ['app:a', 'busy', 0, 2, 1],
      ['header:a', 'busy', 0, 4, 2],
      ['app:a', 'y', 0, 128, 64],
    ]);
    counters.clear(ofApp('a'));
    expect(layers(counters.snapshot())).toEqual([
      'global busy 0',
      'header:b busy 0',
      'global busy 1',
      'global bus 0',
      'global busy-2 0',
    ]);
    counters.clear();
    expect(counters.snapshot()).toEqual([]);
  });

  it('restores every layer, or only the layers picked from the rows of those layers', () => {
    const counters = counted();
    const rows = counters.snapshot();
    const fresh = new RuleCounters();
    Object.assign(fresh.of('app:z', 'other', 3), { matched: 1, applied: 0 });
    fresh.restore(rows);
    expect(fresh.snapshot()).toEqual(rows);

    const one = new RuleCounters();
    Object.assign(one.of('app:a', 'old', 0), { matched: 9, applied: 9 });
    Object.assign(one.of('global', 'old', 0), { matched: 7, applied: 7 });
    one.restore(rows, ofApp('a'));
    expect(one.snapshot()).toEqual([
      ['global', 'old', 0, 7, 7],
      ['app:a', 'busy', 0, 2, 1],
      ['header:a', 'busy', 0, 4, 2],
      ['app:a', 'y', 0, 128, 64],
    ]);
  });
});

describe('scenarioState', () => {
  const scenario = (name: string) =>
    ScenarioSchema.parse({ name, rules: [{ match: { path: '/api/x' }, fault: { error: 'ERR_OPERATION_FAILED' } }] });
  const setup = (random: RandomSource = createRandom(3), randomFor: (appId: string) => RandomSource = seeded) => {
    const sets = new ScenarioSets(randomFor);
    for (const name of ['x', 'y', 'z']) sets.load(scenario(name), 'test');
    return { sets, random, state: scenarioState(sets, random) };
  };

  it('snapshots every app’s state, or one app’s', () => {
    const { sets, random, state } = setup();
    sets.apps.set('a', ['x']);
    sets.apps.set('b', ['y']);
    sets.noteHeader('a', ['z']);
    sets.noteHeader('b', ['x']);
    sets.noteHeader(null, ['y']);
    sets.counters.of('app:a', 'x', 0).matched = 1;
    sets.counters.of('header:b', 'x', 0).matched = 2;
    sets.counters.of('global', 'y', 0).matched = 3;
    random.next();
    sets.apps.random('a').next();
    sets.apps.random('b').next();
    const a = seeded('a');
    a.next();
    const b = seeded('b');
    b.next();

    expect(state.snapshot()).toStrictEqual({
      apps: { a: ['x'], b: ['y'] },
      counters: [
        ['app:a', 'x', 0, 1, 0],
        ['header:b', 'x', 0, 2, 0],
        ['global', 'y', 0, 3, 0],
      ],
      headerActivated: { a: ['z'], b: ['x'], '': ['y'] },
      draws: { shared: random.state!(), apps: { a: a.state(), b: b.state() } },
    });
    expect(state.snapshot('b')).toStrictEqual({
      apps: { b: ['y'] },
      counters: [['header:b', 'x', 0, 2, 0]],
      headerActivated: { b: ['x'] },
      draws: { shared: null, apps: { b: b.state() } },
    });
  });

  it('gives null for the shared source when it cannot say where it stands', () => {
    const { state } = setup(plain(3));
    expect(state.snapshot().draws).toStrictEqual({ shared: null, apps: {} });
  });

  it('restores every app’s state in place of what is there, leaving out scenarios not loaded', () => {
    const { sets, random, state } = setup();
    sets.apps.set('old', ['x']);
    sets.noteHeader('old', ['x']);
    sets.counters.of('app:old', 'x', 0).matched = 5;
    const shared = random.state!();
    const nextShared = draws(random, 2);
    sets.apps.random('a').next();
    const savedA = sets.apps.drawStates().a!;
    const nextA = draws(sets.apps.random('a'), 2);

    state.restore({
      apps: { a: ['x', 'gone'], b: ['y'] },
      counters: [['app:a', 'x', 0, 1, 1]],
      headerActivated: { a: ['z'], '': ['y'] },
      draws: { shared, apps: { a: savedA } },
    });
    const { draws: _, ...restored } = state.snapshot();
    expect(restored).toStrictEqual({
      apps: { a: ['x'], b: ['y'] },
      counters: [['app:a', 'x', 0, 1, 1]],
      headerActivated: { a: ['z'], '': ['y'] },
    });
    expect(draws(random, 2)).toEqual(nextShared);
    expect(draws(sets.apps.random('a'), 2)).toEqual(nextA);
  });

  it('restores only the parts given', () => {
    const { sets, random, state } = setup();
    sets.apps.set('a', ['x']);
    sets.noteHeader('a', ['z']);
    sets.counters.of('app:a', 'x', 0).matched = 5;
    random.next();
    const before = state.snapshot();
    state.restore({});
    expect(state.snapshot()).toStrictEqual(before);
    // A shared state of null (a source that could not say) leaves the shared source as it is.
    state.restore({ draws: { shared: null, apps: {} } });
    expect(state.snapshot().draws.shared).toBe(before.draws.shared);
  });

  it('restores one app’s state, leaving every other app’s and the shared draws as they are', () => {
    const { sets, random, state } = setup();
    sets.apps.set('a', ['x']);
    sets.apps.set('b', ['y']);
    sets.noteHeader('a', ['x']);
    sets.noteHeader('b', ['y']);
    sets.counters.of('app:a', 'x', 0).matched = 1;
    sets.counters.of('app:b', 'y', 0).matched = 2;
    sets.apps.random('b').next();
    random.next();
    const other = state.snapshot();
    const nextShared = draws(createRandom(random.state!()), 1);

    state.restore(
      {
        apps: { a: ['z'], b: ['z'] },
        counters: [
          ['app:a', 'z', 0, 7, 7],
          ['app:b', 'z', 0, 8, 8],
        ],
        headerActivated: { a: ['z'], b: ['z'] },
        draws: { shared: 1, apps: { a: 11, b: 22 } },
      },
      'a',
    );
    expect(state.snapshot('a')).toStrictEqual({
      apps: { a: ['z'] },
      counters: [['app:a', 'z', 0, 7, 7]],
      headerActivated: { a: ['z'] },
      draws: { shared: null, apps: { a: 11 } },
    });
    const { apps, counters, headerActivated, draws: after } = state.snapshot();
    expect(apps).toStrictEqual({ b: ['y'], a: ['z'] });
    expect(counters).toEqual([
      ['app:b', 'y', 0, 2, 0],
      ['app:a', 'z', 0, 7, 7],
    ]);
    expect(headerActivated).toStrictEqual({ b: ['y'], a: ['z'] });
    expect(after).toStrictEqual({ shared: other.draws.shared, apps: { b: other.draws.apps.b, a: 11 } });
    expect(draws(random, 1)).toEqual(nextShared);
  });

  it('restores draws of sources that can neither say nor resume without an error', () => {
    const { state } = setup(plain(3), () => plain(4));
    expect(() => state.restore({ draws: { shared: 5, apps: { a: 6 } } })).not.toThrow();
    expect(state.snapshot().draws).toStrictEqual({ shared: null, apps: {} });
  });
});
