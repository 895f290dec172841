/**
 * What /__scenarios shows beyond the global view: the header layer's counters
 * (headerActivated), files refused on reload (loadErrors), one scenario by name with its
 * header rules; and what the journal says when several rules of one scenario apply.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EmulatorApp } from '../../src/index.js';
import { expectApiError, makeTestApp, call, send, errorOf, callOk } from '../helpers/app.js';
import type { JournalPage, ScenarioDetail, ScenarioList } from '../helpers/api-types.js';

const PLAIN = { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' };
const TWICE = {
  name: 'twice',
  rules: [{ match: { path: '/api/notifications/send' }, fault: { error: 'ERR_OPERATION_FAILED' }, times: 2 }],
};
const header = (name: string) => ({ headers: { 'x-emulator-scenario': name } });

let app: EmulatorApp | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('GET /__scenarios: headerActivated', () => {
  it('shows the header layer counters of each scenario a header named; the global view stays untouched', async () => {
    app = makeTestApp({ scenarios: [TWICE, { ...TWICE, name: 'unused' }] });
    expect((await call<ScenarioList>(app, 'GET', '/__scenarios')).body.headerActivated).toEqual([]);
    expect((await send(app, PLAIN, header('twice'))).status).toBe(500);
    expect((await send(app, PLAIN, header('twice'))).status).toBe(500);
    expect((await send(app, PLAIN, header('twice'))).status).toBe(200);
    const body = (await call<ScenarioList>(app, 'GET', '/__scenarios')).body;
    expect(body.headerActivated).toHaveLength(1);
    expect(body.headerActivated[0]).toMatchObject({
      name: 'twice',
      active: false,
      rules: [{ rule: 1, matched: 3, applied: 2, remaining: 0, explanation: expect.stringContaining('0 of 2 left') }],
    });
    expect(body.scenarios.find((s) => s.name === 'twice')!.rules[0]).toMatchObject({
      matched: 0,
      applied: 0,
      remaining: 2,
    });
  });

  it('forgets them on POST /__scenarios/reset and when the scenario is deleted', async () => {
    app = makeTestApp({ scenarios: [TWICE, { ...TWICE, name: 'other' }] });
    await send(app, PLAIN, header('twice,other'));
    const names = async () =>
      (await call<ScenarioList>(app!, 'GET', '/__scenarios')).body.headerActivated.map((s: { name: string }) => s.name);
    expect(await names()).toEqual(['twice', 'other']);
    await callOk(app, 'DELETE', '/__scenarios/other');
    expect(await names()).toEqual(['twice']);
    await callOk(app, 'POST', '/__scenarios/reset');
    expect(await names()).toEqual([]);
  });
});

describe('GET /__scenarios/{name}', () => {
  it('answers one scenario view with the rules of the header layer', async () => {
    app = makeTestApp({ scenarios: [TWICE], activeScenarios: ['twice'] });
    await send(app, PLAIN); // global layer
    await send(app, PLAIN, header('twice')); // header layer, own counters
    await send(app, PLAIN, header('twice'));
    const res = await call<ScenarioDetail>(app, 'GET', '/__scenarios/twice');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'twice',
      source: 'options.scenarios',
      active: true,
      rules: [{ rule: 1, applied: 1, remaining: 1 }],
      headerRules: [{ rule: 1, applied: 2, remaining: 0 }],
    });
    const list = (await call<ScenarioList>(app, 'GET', '/__scenarios')).body.scenarios[0];
    expect({ ...res.body, headerRules: undefined }).toEqual({ ...list, headerRules: undefined });
  });

  it('answers 404 in the envelope for an unknown name', async () => {
    app = makeTestApp();
    const res = await call<ScenarioDetail>(app, 'GET', '/__scenarios/nope');
    expectApiError(res, 404, 'ERR_NOT_FOUND');
    expect(errorOf(res).devMessage).toContain('"nope"');
  });
});

describe('GET /__scenarios: loadErrors', () => {
  it('lists files refused on reload with their problems, and drops a file once it is fixed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'good.json'), JSON.stringify(TWICE));
    const logger = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
    app = makeTestApp({ scenariosDir: dir, watch: true, logger });
    const errors = async () => (await call<ScenarioList>(app!, 'GET', '/__scenarios')).body.loadErrors;
    expect(await errors()).toEqual([]);

    writeFileSync(join(dir, 'bad.json'), '{ not json');
    writeFileSync(join(dir, 'good.json'), JSON.stringify({ name: 'twice', rules: [{ fault: { status: 'x' } }] }));
    await vi.waitFor(async () => expect(await errors()).toHaveLength(2), { timeout: 5000, interval: 50 });
    const byFile = Object.fromEntries(
      (await errors()).map((e: { file: string; problems: string[] }) => [e.file, e.problems]),
    );
    expect(byFile[join(dir, 'bad.json')]).toEqual([expect.stringMatching(/not valid JSON/)]);
    expect(byFile[join(dir, 'good.json')]).toEqual([expect.stringMatching(/rule 1, field "fault.status"/)]);
    // The bad edit of good.json kept its last good version loaded.
    expect((await call<ScenarioDetail>(app, 'GET', '/__scenarios/twice')).status).toBe(200);

    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...TWICE, name: 'fixed' }));
    writeFileSync(join(dir, 'good.json'), JSON.stringify(TWICE));
    await vi.waitFor(async () => expect(await errors()).toEqual([]), { timeout: 5000, interval: 50 });
  });
});

describe('watching scenarios/', () => {
  it.each([0, 300])(
    'watches the folder deleted and made again %i ms later (rm -r, then a checkout), and edits in it after',
    async (pauseMs) => {
      const dir = join(mkdtempSync(join(tmpdir(), 'scenarios-')), 'scenarios');
      dirs.push(dir);
      mkdirSync(dir);
      writeFileSync(join(dir, 'a.json'), JSON.stringify({ ...TWICE, name: 'first' }));
      const logger = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
      app = makeTestApp({ scenariosDir: dir, watch: true, logger });
      const names = async () =>
        (await call<ScenarioList>(app!, 'GET', '/__scenarios')).body.scenarios.map((v) => v.name).sort();
      expect(await names()).toEqual(['first']);
      rmSync(dir, { recursive: true });
      // With a pause, the watch of the deleted folder sees it go first; without, both changes come at once.
      await new Promise((r) => setTimeout(r, pauseMs));
      mkdirSync(dir);
      writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...TWICE, name: 'second' }));
      await vi.waitFor(async () => expect(await names()).toEqual(['second']), { timeout: 5000, interval: 50 });
      // An edit in the new folder, which no watch was set on at the start.
      writeFileSync(join(dir, 'c.json'), JSON.stringify({ ...TWICE, name: 'third' }));
      await vi.waitFor(async () => expect(await names()).toEqual(['second', 'third']), {
        timeout: 5000,
        interval: 50,
      });
    },
  );
});

describe('a scenarios/ folder empty at the start (createApp and the CLI refuse a missing one)', () => {
  it('loads the files added to it, and watches them from then on', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'scenarios-')), 'scenarios');
    dirs.push(dirname(dir));
    expect(() => makeTestApp({ scenariosDir: dir })).toThrow(/options\.scenariosDir: the folder ".*" does not exist/);
    mkdirSync(dir);
    const logger = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
    app = makeTestApp({ scenariosDir: dir, watch: true, logger });
    const names = async () =>
      (await call<ScenarioList>(app!, 'GET', '/__scenarios')).body.scenarios.map((v) => v.name).sort();
    expect(await names()).toEqual([]);
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ ...TWICE, name: 'first' }));
    await vi.waitFor(async () => expect(await names()).toEqual(['first']), { timeout: 5000, interval: 50 });
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...TWICE, name: 'second' }));
    await vi.waitFor(async () => expect(await names()).toEqual(['first', 'second']), { timeout: 5000, interval: 50 });
  });
});

describe('several rules of one scenario on one request', () => {
  const CHAIN = {
    name: 'chain',
    rules: [
      { match: { path: '/api/notifications/send' }, fault: { delayMs: 150 } },
      { match: { method: 'POST' }, fault: { delayMs: 150 } },
      { match: { path: '/api/*' }, fault: { error: 'ERR_OPERATION_FAILED' } },
      { match: { path: '/api/*' }, fault: { error: 'ERR_BAD_REQUEST' } },
    ],
  };

  it('adds up their delays, and the first final fault decides the answer', async () => {
    app = makeTestApp({ scenarios: [CHAIN] });
    const started = performance.now();
    const res = await send(app, PLAIN, header('chain'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expectApiError(res, 500, 'ERR_OPERATION_FAILED');
  });

  it('are all named in the journal entry, in order; scenario and rule name the deciding one', async () => {
    app = makeTestApp({ scenarios: [CHAIN] });
    await send(app, PLAIN, header('chain'));
    const entry = (await call<JournalPage>(app, 'GET', '/__inspect/requests')).body.items[0]!;
    expect(entry.rules.map((r: { scenario: string; index: number }) => [r.scenario, r.index])).toEqual([
      ['chain', 1],
      ['chain', 2],
      ['chain', 3],
    ]);
    expect(entry.rules[0]!.rule).toMatch(/^rule 1: .* → wait 150 ms, then answer normally$/);
    expect(entry).toMatchObject({ scenario: 'chain', rule: expect.stringMatching(/^rule 3: /) });
  });

  it('names a request rule and a failDelivery rule together, each failDelivery rule once', async () => {
    const mixed = {
      name: 'mixed',
      rules: [
        { match: { path: '/api/notifications/send' }, fault: { delayMs: 1 } },
        { match: { userId: 'u*' }, fault: { failDelivery: 'unreachable' } },
      ],
    };
    app = makeTestApp({ scenarios: [mixed, { ...mixed, name: 'other' }] });
    await send(app, { template: { key: 'plain' }, targets: ['u1', 'u2', 'u3'], mode: 'batch' }, header('mixed'));
    const entry = (await call<JournalPage>(app, 'GET', '/__inspect/requests')).body.items[0]!;
    expect(entry.rules.map((r: { scenario: string; index: number }) => [r.scenario, r.index])).toEqual([
      ['mixed', 1],
      ['mixed', 2],
    ]);
    expect((await call<JournalPage>(app, 'GET', '/__inspect/requests?scenario=mixed')).body.total).toBe(1);
    expect((await call<JournalPage>(app, 'GET', '/__inspect/requests?scenario=other')).body.total).toBe(0);
  });
});
