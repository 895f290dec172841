/**
 * The scenario control API (/__scenarios), start-time activation and loading from a
 * directory, hot reload that keeps the last good file, and /__health's active list.
 */
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, type EmulatorApp, type Health, type ScenarioList } from '../../src/index.js';
import { expectApiError, makeTestApp, callOk, errorOf, call, send } from '../helpers/app.js';

const PLAIN = { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' };
const OUTAGE = {
  name: 'upload-outage',
  description: 'CSV upload fails twice',
  rules: [
    { match: { method: 'POST', path: '/api/campaigns/upload' }, fault: { error: 'ERR_OPERATION_FAILED' }, times: 2 },
  ],
};
const SEND_FAILS = (name: string, status = 503) => ({
  name,
  rules: [{ match: { path: '/api/notifications/send' }, fault: { status } }],
});

let app: EmulatorApp | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = (files: Record<string, unknown>) => {
  const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
};

describe('GET/POST/DELETE /__scenarios', () => {
  it('lists loaded scenarios with each rule explained and its remaining count', async () => {
    app = makeTestApp({ scenarios: [OUTAGE], activeScenarios: ['upload-outage'] });
    const upload = await call(app, 'POST', '/api/campaigns/upload', undefined, { raw: new FormData() });
    expectApiError(upload, 500, 'ERR_OPERATION_FAILED');
    const res = await call<ScenarioList>(app, 'GET', '/__scenarios');
    expect(res.status).toBe(200);
    expect(res.body.active).toEqual(['upload-outage']);
    expect(res.body.scenarios[0]).toMatchObject({
      name: 'upload-outage',
      description: 'CSV upload fails twice',
      active: true,
    });
    expect(res.body.scenarios[0]!.rules[0]).toMatchObject({
      rule: 1,
      remaining: 1,
      explanation: 'rule 1: POST /api/campaigns/upload → fail with ERR_OPERATION_FAILED (1 of 2 left)',
    });
  });

  it('loads a scenario from a JSON body (201), replaces it (200) and resets its counters', async () => {
    app = makeTestApp();
    const created = await call(app, 'POST', '/__scenarios', SEND_FAILS('fails'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ replaced: false, scenario: { name: 'fails', source: 'api', active: false } });
    expect((await call(app, 'POST', '/__scenarios', SEND_FAILS('fails', 502))).status).toBe(200);
    await callOk(app, 'PUT', '/__scenarios/active', { names: ['fails'] });
    expect((await send(app, PLAIN)).status).toBe(502);
  });

  it('answers 400 naming the rule index and field of an invalid scenario', async () => {
    app = makeTestApp();
    const res = await call(app, 'POST', '/__scenarios', {
      name: 'bad',
      rules: [{ fault: { error: 'ERR_OPERATION_FAILED' } }, { fault: { error: 'ERR_NOPE' } }],
    });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).devMessage).toContain('rule 2, field "fault.error"');
    expect(errorOf(res).details).toHaveProperty(['rules.1.fault.error']);
  });

  it('answers 400 for a body that is not JSON', async () => {
    app = makeTestApp();
    expectApiError(
      await call(app, 'POST', '/__scenarios', undefined, {
        raw: 'nope',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'ERR_BAD_REQUEST',
    );
  });

  it('deletes a scenario (and deactivates it), 404 when unknown', async () => {
    app = makeTestApp({ scenarios: [SEND_FAILS('fails')], activeScenarios: ['fails'] });
    const res = await call(app, 'DELETE', '/__scenarios/fails');
    expect(res.body).toEqual({ deleted: 'fails', active: [] });
    expect((await send(app, PLAIN)).status).toBe(200);
    expectApiError(await call(app, 'DELETE', '/__scenarios/fails'), 404, 'ERR_NOT_FOUND');
  });

  it('restores counters on POST /__scenarios/reset', async () => {
    app = makeTestApp({
      scenarios: [{ ...SEND_FAILS('once'), rules: [{ ...SEND_FAILS('once').rules[0], times: 1 }] }],
      activeScenarios: ['once'],
    });
    expect((await send(app, PLAIN)).status).toBe(503);
    expect((await send(app, PLAIN)).status).toBe(200);
    const reset = await call<ScenarioList>(app, 'POST', '/__scenarios/reset');
    expect(reset.body.scenarios[0]!.rules[0]).toMatchObject({ remaining: 1 });
    expect((await send(app, PLAIN)).status).toBe(503);
  });
});

describe('activation', () => {
  it('sets the active set with PUT /__scenarios/active and shows it in /__health', async () => {
    app = makeTestApp({ scenarios: [SEND_FAILS('a'), SEND_FAILS('b')] });
    expect((await call(app, 'PUT', '/__scenarios/active', { names: ['b'] })).body).toEqual({ active: ['b'] });
    expect((await call<Health>(app, 'GET', '/__health')).body.activeScenarios).toEqual(['b']);
    expect((await send(app, PLAIN)).status).toBe(503);
    await callOk(app, 'PUT', '/__scenarios/active', { names: [] });
    expect((await send(app, PLAIN)).status).toBe(200);
  });

  it('answers 400 naming an unknown scenario in PUT /__scenarios/active and changes nothing', async () => {
    app = makeTestApp({ scenarios: [SEND_FAILS('a')], activeScenarios: ['a'] });
    const res = await call(app, 'PUT', '/__scenarios/active', { names: ['a', 'ghost'] });
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).devMessage).toContain('"ghost"');
    expect((await call<ScenarioList>(app, 'GET', '/__scenarios')).body.active).toEqual(['a']);
    expectApiError(await call(app, 'PUT', '/__scenarios/active', { names: 'a' }), 400, 'ERR_BAD_REQUEST');
  });

  it('refuses to start with an unknown active scenario name', () => {
    expect(() => makeTestApp({ scenarios: [SEND_FAILS('a')], activeScenarios: ['ghost'] })).toThrow(
      /no scenario named "ghost"/,
    );
  });

  it('refuses to start with an invalid inline scenario, naming the rule and field', () => {
    expect(() => makeTestApp({ scenarios: [{ name: 'x', rules: [{ fault: { rateLimit: {} } }] }] })).toThrow(
      ConfigError,
    );
    expect(() => makeTestApp({ scenarios: [{ name: 'x', rules: [{ fault: { rateLimit: {} } }] }] })).toThrow(
      /rule 1, field "fault.rateLimit.retryAfterSec"/,
    );
  });

  it('refuses to start with two inline scenarios of one name, naming the second', () => {
    expect(() => makeTestApp({ scenarios: [SEND_FAILS('a'), SEND_FAILS('b'), SEND_FAILS('a')] })).toThrow(
      'options.scenarios[2]: field "name": scenario "a" is defined twice',
    );
  });
});

describe('scenario directory', () => {
  it('loads scenarios from scenariosDir and activates them from options', async () => {
    const dir = tempDir({ 'a.json': SEND_FAILS('from-file'), 'notes.txt': 'ignored' });
    app = makeTestApp({ scenariosDir: dir, activeScenarios: ['from-file'] });
    expect((await send(app, PLAIN)).status).toBe(503);
    expect((await call<ScenarioList>(app, 'GET', '/__scenarios')).body.scenarios[0]!.source).toBe(join(dir, 'a.json'));
  });

  it('refuses to start with a bad file, naming the file, rule and field', () => {
    const dir = tempDir({
      'good.json': SEND_FAILS('good'),
      'bad.json': { name: 'bad', rules: [{ fault: { delayMs: 1 } }, { fault: { times: 2 } }] },
    });
    expect(() => makeTestApp({ scenariosDir: dir })).toThrow(/bad\.json: rule 2, field "fault"/);
  });

  it('refuses to start with a file that is not JSON or a name defined twice', () => {
    const broken = tempDir({ 'x.json': '{ nope' });
    expect(() => makeTestApp({ scenariosDir: broken })).toThrow(/x\.json: not valid JSON/);
    const twice = tempDir({ 'a.json': SEND_FAILS('same'), 'b.json': SEND_FAILS('same') });
    expect(() => makeTestApp({ scenariosDir: twice })).toThrow(
      /b\.json: field "name": scenario "same" is already defined/,
    );
  });

  it('ships at least six valid example scenarios in ./scenarios, each with a description', async () => {
    app = makeTestApp({ scenariosDir: './scenarios' });
    const { scenarios } = (await call<ScenarioList>(app, 'GET', '/__scenarios')).body;
    expect(scenarios.length).toBeGreaterThanOrEqual(6);
    for (const s of scenarios) expect(s.description, s.name).toEqual(expect.stringMatching(/\w{3}/));
    const kinds = scenarios.flatMap((s) => s.rules.flatMap((r) => Object.keys((r as { fault: object }).fault)));
    for (const kind of ['error', 'delayMs', 'rateLimit', 'failDelivery', 'drop', 'status'])
      expect(kinds).toContain(kind);
  });

  it('refuses a directory that does not exist, as the CLI does', () => {
    const missing = join(tmpdir(), 'no-such-scenarios-dir-xyz');
    expect(() => makeTestApp({ scenariosDir: missing })).toThrow(
      `options.scenariosDir: the folder "${missing}" does not exist`,
    );
  });

  it('reloads changed files, keeps the last good version of a bad edit and logs it', async () => {
    const dir = tempDir({ 'a.json': SEND_FAILS('flip', 503) });
    const errors: string[] = [];
    const logger = { error: (m: string) => errors.push(m), warn: () => {}, info: () => {}, debug: () => {} };
    app = makeTestApp({ scenariosDir: dir, activeScenarios: ['flip'], watch: true, logger });
    expect((await send(app, PLAIN)).status).toBe(503);

    writeFileSync(join(dir, 'a.json'), JSON.stringify(SEND_FAILS('flip', 502)));
    await vi.waitFor(async () => expect((await send(app!, PLAIN)).status).toBe(502), { timeout: 5000, interval: 50 });

    writeFileSync(join(dir, 'a.json'), JSON.stringify({ name: 'flip', rules: [{ fault: { status: 'x' } }] }));
    await vi.waitFor(
      () =>
        expect(errors.join('\n')).toMatch(/a\.json.*keeping the previous "flip"[\s\S]*rule 1, field "fault.status"/),
      { timeout: 5000, interval: 50 },
    );
    expect((await send(app, PLAIN)).status).toBe(502);

    writeFileSync(join(dir, 'b.json'), JSON.stringify(SEND_FAILS('added')));
    await vi.waitFor(
      async () =>
        expect(
          (await call<ScenarioList>(app!, 'GET', '/__scenarios')).body.scenarios.map((s) => s.name).sort(),
        ).toEqual(['added', 'flip']),
      {
        timeout: 5000,
        interval: 50,
      },
    );
    unlinkSync(join(dir, 'a.json'));
    await vi.waitFor(
      async () => expect((await call<ScenarioList>(app!, 'GET', '/__scenarios')).body.active).toEqual([]),
      {
        timeout: 5000,
        interval: 50,
      },
    );
  });
});
