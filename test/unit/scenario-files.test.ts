/**
 * A scenario folder read into the engine (load-scenarios.ts), without watching it: the files
 * read in name order, each problem naming its file, a reload keeping a refused file's last good
 * version, a file gone taking its scenario with it, and the lines a reload logs.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/domain/errors.js';
import { TOO_DEEP_TO_LOAD } from '../../src/domain/json-depth.js';
import { createRandom } from '../../src/platform/random.js';
import { createScenarioEngine } from '../../src/scenario-engine/engine.js';
import {
  createScenarioFiles,
  parseScenario,
  readScenarioDir,
  ScenarioSchema,
  watchScenarioDir,
} from '../../src/scenario-engine/load-scenarios.js';

const root = mkdtempSync(join(tmpdir(), 'emu-scenario-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
/** A new folder holding `files` (name → JSON text, or a value written as JSON), written in the order given. */
const folder = (files: Record<string, unknown>) => {
  const dir = join(root, `s${++folders}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  return write(dir, files);
};
const write = (dir: string, files: Record<string, unknown>) => {
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
};
const failing = (name: string, status = 503) => ({
  name,
  rules: [{ match: { path: '/api/x' }, fault: { status } }],
});
const nested = (levels: number): unknown => (levels <= 1 ? {} : { a: nested(levels - 1) });

const setup = (dir: string) => {
  const lines: string[] = [];
  const logger = {
    error: (m: string) => lines.push(`error: ${m}`),
    warn: (m: string) => lines.push(`warn: ${m}`),
    info: (m: string) => lines.push(`info: ${m}`),
    debug: (m: string) => lines.push(`debug: ${m}`),
  };
  const engine = createScenarioEngine({ random: createRandom(1) });
  return { engine, lines, files: createScenarioFiles(dir, engine, logger) };
};
const statusOf = (engine: ReturnType<typeof setup>['engine'], name: string) =>
  (engine.get(name)?.rules[0]?.fault as { status?: number } | undefined)?.status;

describe('parseScenario', () => {
  it('refuses a scenario nested too deep, naming where, before the schema reads it', () => {
    const deep = { name: 'deep', rules: [{ match: { body: nested(70) }, fault: { status: 500 } }] };
    expect(parseScenario(deep, 'options.scenarios[0]')).toStrictEqual({
      problems: [`options.scenarios[0]: ${TOO_DEEP_TO_LOAD}`],
      details: { '(body)': TOO_DEEP_TO_LOAD },
    });
  });

  it('gives the scenario, or each problem prefixed with where it is', () => {
    expect(parseScenario(failing('ok'), 'x.json')).toStrictEqual({ scenario: ScenarioSchema.parse(failing('ok')) });
    const refused = parseScenario({ name: 'bad', rules: [{ fault: { status: 'x' } }] }, 'x.json');
    expect('problems' in refused && refused.problems).toEqual([
      expect.stringMatching(/^x\.json: rule 1, field "fault\.status"/),
    ]);
    expect('details' in refused && Object.keys(refused.details).length).toBeGreaterThan(0);
  });
});

describe('readScenarioDir', () => {
  it('reads nothing from a folder that does not exist', () => {
    const read = readScenarioDir(join(root, 'missing'));
    expect([...read.good]).toEqual([]);
    expect([...read.bad]).toEqual([]);
  });

  it('reads the .json files only, in name order; the first file of a name owns it', () => {
    const dir = folder({
      'z.json': failing('zed'),
      'notes.txt': 'not a scenario',
      json: 'nor this',
      'm.json': failing('twice'),
      'c.json': failing('twice', 502),
      'a.json': failing('alpha'),
    });
    const { good, bad } = readScenarioDir(dir);
    expect([...good.keys()]).toEqual(['a.json', 'c.json', 'z.json'].map((f) => join(dir, f)));
    expect(good.get(join(dir, 'c.json'))?.name).toBe('twice');
    expect([...bad]).toEqual([
      [
        join(dir, 'm.json'),
        [
          `${join(dir, 'm.json')}: field "name": scenario "twice" is already defined in ${join(dir, 'c.json')}; ` +
            `names must be unique`,
        ],
      ],
    ]);
  });

  it('names the file of a refused file, and reads on past it', () => {
    const dir = folder({
      'a.json': '{ nope',
      'b.json': { name: 'b', rules: [{ fault: { status: 'x' } }] },
      'c.json': failing('c'),
    });
    const { good, bad } = readScenarioDir(dir);
    expect([...good.values()].map((s) => s.name)).toEqual(['c']);
    expect(bad.get(join(dir, 'a.json'))).toEqual([
      expect.stringMatching(new RegExp(`^${join(dir, 'a.json')}: not valid JSON: .`)),
    ]);
    expect(bad.get(join(dir, 'b.json'))).toEqual([expect.stringMatching(/b\.json: rule 1, field "fault\.status"/)]);
  });
});

describe('createScenarioFiles', () => {
  it('loads every file at start, or refuses with every problem of every file', () => {
    const dir = folder({ 'a.json': failing('a'), 'b.json': failing('b') });
    const { engine, files, lines } = setup(dir);
    engine.setLoadErrors([{ file: 'earlier', problems: ['x'] }]);
    files.loadAtStart();
    expect(engine.names()).toEqual(['a', 'b']);
    expect(engine.sourceOf('b')).toBe(join(dir, 'b.json'));
    expect(engine.loadErrors()).toEqual([]);
    expect(files.current()).toEqual([
      { scenario: engine.get('a'), source: join(dir, 'a.json') },
      { scenario: engine.get('b'), source: join(dir, 'b.json') },
    ]);
    expect(lines).toEqual([]);

    const broken = folder({ 'a.json': '{', 'b.json': failing('b'), 'c.json': { name: 'c' } });
    const refused = setup(broken);
    let error: unknown;
    try {
      refused.files.loadAtStart();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/a\.json: not valid JSON/),
      expect.stringMatching(/c\.json: field "rules"/),
    ]);
    expect(refused.engine.names()).toEqual([]);
    expect(refused.files.current()).toEqual([]);
  });

  it('reloads a changed file and logs how many scenarios the folder holds', () => {
    const dir = folder({ 'a.json': failing('flip', 503) });
    const { engine, files, lines } = setup(dir);
    files.loadAtStart();
    write(dir, { 'a.json': failing('flip', 502), 'b.json': failing('added') });
    files.reload();
    expect(statusOf(engine, 'flip')).toBe(502);
    expect(engine.names()).toEqual(['flip', 'added']);
    expect(engine.loadErrors()).toEqual([]);
    expect(lines).toEqual([`info: reloaded 2 scenario(s) from ${dir}`]);
  });

  it('keeps the last good version of a refused file, and lists the file in the load errors', () => {
    const dir = folder({ 'a.json': failing('flip', 503) });
    const { engine, files, lines } = setup(dir);
    files.loadAtStart();
    engine.setActive(['flip']);
    write(dir, {
      'a.json': { name: 'flip', rules: [{ fault: { status: 'x' } }, { fault: { status: 'y' } }] },
      'g.json': failing('other'),
      'n.json': '{',
    });
    files.reload();
    expect(statusOf(engine, 'flip')).toBe(503);
    expect(engine.names()).toEqual(['flip', 'other']);
    expect(engine.active()).toEqual(['flip']);
    const a = join(dir, 'a.json');
    const n = join(dir, 'n.json');
    expect(files.current().map((c) => c.source)).toEqual([join(dir, 'g.json'), a]);
    expect(lines[0]).toMatch(
      new RegExp(
        `^error: scenario reload refused for ${a}, keeping the previous "flip":\\n` +
          `${a}: rule 1, field "fault\\.status"[^\\n]*\\n${a}: rule 2, field "fault\\.status"[^\\n]*$`,
      ),
    );
    expect(lines[1]).toMatch(new RegExp(`^error: scenario reload refused for ${n}:\\n${n}: not valid JSON: `));
    expect(lines.slice(2)).toEqual([`info: reloaded 2 scenario(s) from ${dir}`]);
    expect(engine.loadErrors()).toEqual([
      { file: a, problems: [expect.stringMatching(/rule 1, field "fault\.status"/), expect.stringMatching(/rule 2/)] },
      { file: n, problems: [expect.stringMatching(/not valid JSON/)] },
    ]);

    // Fixed: the file drops out of the load errors.
    write(dir, { 'a.json': failing('flip', 504) });
    unlinkSync(n);
    unlinkSync(join(dir, 'g.json'));
    files.reload();
    expect(statusOf(engine, 'flip')).toBe(504);
    expect(engine.loadErrors()).toEqual([]);
  });

  it('does not keep a refused file’s last version when another file now defines its name', () => {
    const dir = folder({ 'a.json': failing('flip', 503) });
    const { engine, files } = setup(dir);
    files.loadAtStart();
    write(dir, { 'a.json': '{', 'b.json': failing('flip', 502), 'g.json': failing('other') });
    files.reload();
    expect(statusOf(engine, 'flip')).toBe(502);
    expect(engine.sourceOf('flip')).toBe(join(dir, 'b.json'));
    expect(files.current().map((c) => c.source)).toEqual([join(dir, 'b.json'), join(dir, 'g.json')]);
  });

  it('keeps a refused file’s last version when the folder has no good file left', () => {
    const dir = folder({ 'a.json': failing('flip', 503) });
    const { engine, files } = setup(dir);
    files.loadAtStart();
    write(dir, { 'a.json': '{' });
    files.reload();
    expect(statusOf(engine, 'flip')).toBe(503);
    expect(files.current().map((c) => c.source)).toEqual([join(dir, 'a.json')]);
  });

  it('unloads the scenario of a file gone, warning when it was active; scenarios of other sources stay', () => {
    const dir = folder({ 'a.json': failing('on'), 'b.json': failing('off'), 'c.json': failing('kept') });
    const { engine, files, lines } = setup(dir);
    files.loadAtStart();
    engine.load(ScenarioSchema.parse(failing('posted')), 'api');
    engine.load(ScenarioSchema.parse(failing('elsewhere')), join(root, 'other', 'x.json'));
    engine.setActive(['on', 'posted']);
    unlinkSync(join(dir, 'a.json'));
    unlinkSync(join(dir, 'b.json'));
    files.reload();
    expect(engine.names()).toEqual(['kept', 'posted', 'elsewhere']);
    expect(engine.active()).toEqual(['posted']);
    expect(lines).toEqual([
      'warn: scenario "on" was active and its file is gone; it is no longer active',
      `info: reloaded 1 scenario(s) from ${dir}`,
    ]);
  });
});

describe('watchScenarioDir', () => {
  it('calls back after a file of the folder changes, until stopped', async () => {
    const dir = folder({ 'a.json': failing('a') });
    let reloads = 0;
    const stop = watchScenarioDir(dir, () => reloads++, { debounceMs: 10 });
    try {
      write(dir, { 'a.json': failing('a', 502) });
      await vi.waitFor(() => expect(reloads).toBeGreaterThan(0), { timeout: 5000, interval: 20 });
    } finally {
      stop();
    }
  });
});
