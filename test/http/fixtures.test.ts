/**
 * Fixture templates (docs/reference.md#templates): file forms, variableSchema forms, defaults, stable IDs,
 * startup errors naming file and field, and reload on change keeping the last good set.
 */
import { existsSync, mkdtempSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createApp, type EmulatorApp, type Delivery, type Health } from '../../src/index.js';
import { expectApiError, type List, call, send, errorOf } from '../helpers/app.js';
import type {} from '../helpers/api-types.js';
import { bundledTemplatesCopy } from '../helpers/fixtures.js';
import { writeFixtureSet } from '../../src/tools/write-fixtures.js';

const opened: EmulatorApp[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

function fixturesDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'emu-fixtures-'));
  mkdirSync(join(dir, 'templates'));
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, 'templates', name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

function open(dir: string, watch = false): EmulatorApp {
  const app = createApp({ fixturesDir: dir, watch, logLevel: 'silent' });
  opened.push(app);
  return app;
}

const tpl = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  content: { in_app: { title: `T ${key}` } },
  ...extra,
});

async function templateIdOf(app: EmulatorApp, key: string, variables?: Record<string, unknown>): Promise<string> {
  const res = await send(app, { template: { key, variables }, targets: ['u'], mode: 'realtime' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { body } = await call<List<Delivery>>(
    app,
    'GET',
    `/__inspect/deliveries?notificationId=${res.body.notificationId}`,
  );
  return body.items[0]!.templateId;
}

describe('loading fixture files', () => {
  it('loads one template or an array per file', async () => {
    const app = open(fixturesDir({ 'one.json': tpl('one'), 'many.json': [tpl('two'), tpl('three')] }));
    expect((await call<Health>(app, 'GET', '/__health')).body.templates).toBe(3);
    for (const key of ['one', 'two', 'three']) await templateIdOf(app, key);
  });

  it('accepts both variableSchema forms, required defaulting to true', async () => {
    const app = open(
      fixturesDir({
        'a.json': tpl('arr', {
          variableSchema: [
            { key: 'x', type: 'string', name: 'X' },
            { key: 'y', type: 'string', required: false },
          ],
        }),
        'm.json': tpl('map', { variableSchema: { x: { type: 'string' }, y: { type: 'image', required: false } } }),
      }),
    );
    for (const key of ['arr', 'map']) {
      expectApiError(
        await send(app, { template: { key }, targets: ['u'], mode: 'realtime' }),
        400,
        'ERR_INVALID_VARIABLES',
      );
      await templateIdOf(app, key, { x: 'ok' });
    }
  });

  it('defaults status to approved and channels to the content keys', async () => {
    const app = open(
      fixturesDir({ 'c.json': { key: 'multi', content: { in_app: { title: 'a' }, push: { title: 'b' } } } }),
    );
    const res = await send(app, { template: { key: 'multi' }, targets: ['u'], mode: 'realtime' });
    expect(res.body.channels).toEqual(['in_app', 'push']);
  });

  it('derives a stable 24-hex id from the key when absent (same across instances)', async () => {
    const dir = fixturesDir({ 'k.json': tpl('stable-key') });
    const a = await templateIdOf(open(dir), 'stable-key');
    const b = await templateIdOf(open(fixturesDir({ 'other.json': [tpl('zzz'), tpl('stable-key')] })), 'stable-key');
    expect(a).toMatch(/^[0-9a-f]{24}$/);
    expect(b).toBe(a);
    const c = await templateIdOf(open(dir), 'stable-key');
    expect(c).toBe(a);
  });

  it('keeps a given id', async () => {
    const app = open(fixturesDir({ 'i.json': tpl('with-id', { id: '665b2c3d4e5f6a7b8c9d0e1f' }) }));
    expect(await templateIdOf(app, 'with-id')).toBe('665b2c3d4e5f6a7b8c9d0e1f');
  });

  it.each([
    ['invalid JSON', '{"key": ', 'bad.json', /not valid JSON/],
    ['a bad status', tpl('s', { status: 'live' }), 'bad.json', /field "status"/],
    [
      'a bad variable type',
      tpl('v', { variableSchema: [{ key: 'x', type: 'number' }] }),
      'bad.json',
      /field "variableSchema\.0\.type" \(variable "x"\): must be one of "string", "image", "action" \(got "number"\)/,
    ],
    [
      'a bad variable type in the map form, in an array file',
      [tpl('ok'), tpl('m', { variableSchema: { total: { type: 'money' } } })],
      'bad.json',
      new RegExp(
        'field "1\\.variableSchema\\.total\\.type" \\(variable "total"\\): ' +
          'must be one of "string", "image", "action" \\(got "money"\\)',
      ),
    ],
    ['a missing key', { content: {} }, 'bad.json', /field "key"/],
    ['a bad id', tpl('i', { id: 'XYZ' }), 'bad.json', /field "id"/],
    [
      'a variable declared twice',
      tpl('d', {
        variableSchema: [
          { key: 'x', type: 'string' },
          { key: 'x', type: 'image' },
        ],
      }),
      'bad.json',
      /declared twice/,
    ],
    ['a bad entry in an array file', [tpl('ok'), tpl('bad', { channels: [] })], 'bad.json', /field "1\.channels"/],
  ])('refuses to start on %s, naming the file and field', (_what, content, name, pattern) => {
    const dir = fixturesDir({ 'good.json': tpl('good'), [name]: content });
    let error: unknown;
    try {
      open(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).problems.join('\n');
    expect(message).toContain(join(dir, 'templates', name));
    expect(message).toMatch(pattern);
  });

  it('refuses a key defined twice, naming both files', () => {
    const dir = fixturesDir({ 'a.json': tpl('dup'), 'b.json': tpl('dup') });
    const a = join(dir, 'templates', 'a.json');
    const b = join(dir, 'templates', 'b.json');
    expect(() => open(dir)).toThrow(`template key "dup" is defined twice (shared): in ${a} and in ${b}`);
  });

  it('refuses a key defined twice in one file of several templates, saying so', () => {
    const dir = fixturesDir({ 'many.json': [tpl('dup'), tpl('other'), tpl('dup')] });
    const file = join(dir, 'templates', 'many.json');
    expect(() => open(dir)).toThrow(
      `template key "dup" is defined twice (shared): in ${file} and in ${file} (twice in the same file)`,
    );
  });

  it('reports every bad file at once: templates, apps.json and scenarios', () => {
    const dir = fixturesDir({ 'a.json': tpl('a', { status: 'live' }), 'b.json': '{ nope' });
    writeFileSync(join(dir, 'apps.json'), JSON.stringify([{ appId: 'x' }]));
    const scenarios = mkdtempSync(join(tmpdir(), 'emu-scenarios-'));
    writeFileSync(
      join(scenarios, 's.json'),
      JSON.stringify({ name: 's', rules: [{ fault: { drop: true }, tiems: 2 }] }),
    );
    let problems: string[] = [];
    try {
      createApp({ fixturesDir: dir, scenariosDir: scenarios, watch: false, logLevel: 'silent' });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems.join('\n')).toContain(`${join(dir, 'templates', 'a.json')}: field "status"`);
    expect(problems.join('\n')).toContain(`${join(dir, 'templates', 'b.json')}: not valid JSON`);
    expect(problems.join('\n')).toContain(`${join(dir, 'apps.json')}: field "0.apiKey"`);
    expect(problems.join('\n')).toContain(`${join(scenarios, 's.json')}: rule 1, field "tiems": unknown key "tiems"`);
    expect(problems).toHaveLength(4);
  });

  it('warns through the logger when the fixtures folder holds no templates (createApp outside the repository)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-empty-'));
    const warnings: string[] = [];
    const logger = { error: () => {}, warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {} };
    opened.push(createApp({ fixturesDir: dir, watch: false, logger }));
    expect(warnings).toEqual([
      `no templates found in ${join(dir, 'templates')}: every send will answer 404 until one is added`,
    ]);
    opened.push(createApp({ templates: [], watch: false, logger }));
    expect(warnings).toHaveLength(1); // inline templates: nothing to warn about
  });

  it('names the fixtures folder in the 404 of a template it does not hold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-empty-'));
    const res = await send(open(dir), { template: { key: 'welcome-message' }, targets: ['u'], mode: 'realtime' });
    expectApiError(res, 404, 'ERR_NOT_FOUND');
    expect(errorOf(res).devMessage).toBe(
      'No template with id or key "welcome-message" exists for this app. ' +
        `Shared templates: 0 template(s) from ${join(dir, 'templates')}.`,
    );
  });

  it('refuses a bad apps.json naming the file', () => {
    const dir = fixturesDir({ 'a.json': tpl('a') });
    writeFileSync(join(dir, 'apps.json'), JSON.stringify([{ appId: 'x' }]));
    expect(() => open(dir)).toThrow(/apps\.json: field "0\.apiKey"/);
  });

  it('refuses an apps.json that is not JSON, saying so', () => {
    const dir = fixturesDir({ 'a.json': tpl('a') });
    writeFileSync(join(dir, 'apps.json'), '[{"appId": "x", ');
    expect(() => open(dir)).toThrow(new RegExp(`^${join(dir, 'apps.json')}: not valid JSON: `));
  });

  it('refuses a bad channels.json in a folder without templates/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-channels-only-'));
    writeFileSync(join(dir, 'channels.json'), '[{"name": 1}]');
    expect(() => open(dir)).toThrow(/channels\.json/);
  });

  it('starts with no templates when the folder has none', async () => {
    const app = open(mkdtempSync(join(tmpdir(), 'emu-empty-')));
    expect((await call<Health>(app, 'GET', '/__health')).body.templates).toBe(0);
  });
});

describe('the bundled fixtures/', () => {
  it('load, with at least five templates including a draft and an archived one', async () => {
    const app = open(bundledTemplatesCopy());
    const health = (await call<Health>(app, 'GET', '/__health')).body;
    expect(health.templates).toBeGreaterThanOrEqual(5);
    expectApiError(
      await send(app, {
        template: { key: 'spring-sale-draft', variables: { name: 'x' } },
        targets: ['u'],
        mode: 'realtime',
      }),
      400,
      'ERR_TEMPLATE_NOT_APPROVED',
    );
    expectApiError(
      await send(app, { template: { key: 'legacy-newsletter' }, targets: ['u'], mode: 'realtime' }),
      400,
      'ERR_TEMPLATE_NOT_APPROVED',
    );
  });
});

describe('watching fixtures', () => {
  async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
    let value = await read();
    for (let i = 0; i < 100 && !ok(value); i++) {
      await new Promise((r) => setTimeout(r, 50));
      value = await read();
    }
    return value;
  }
  const templatesCount = (app: EmulatorApp) => async () =>
    (await call<Health>(app, 'GET', '/__health')).body.templates as number;

  /** What pull does: the new templates/ written beside, renamed into place, the old one removed. */
  function swapInTemplates(dir: string, keys: string[]): void {
    const fresh = join(dir, 'templates.new');
    mkdirSync(fresh);
    for (const key of keys) writeFileSync(join(fresh, `${key}.json`), JSON.stringify(tpl(key)));
    const old = join(dir, 'templates.old');
    const hadOne = existsSync(join(dir, 'templates'));
    if (hadOne) renameSync(join(dir, 'templates'), old);
    renameSync(fresh, join(dir, 'templates'));
    if (hadOne) rmSync(old, { recursive: true });
  }

  it('reloads edits made after templates/ was swapped for a new folder, as pull writes it', async () => {
    const dir = fixturesDir({ 'a.json': tpl('first') });
    const app = createApp({ fixturesDir: dir, watch: true, logLevel: 'silent' });
    opened.push(app);
    expect(await templatesCount(app)()).toBe(1);
    swapInTemplates(dir, ['first', 'second']);
    expect(await until(templatesCount(app), (n) => n === 2)).toBe(2);
    // An edit in the new folder: the watch set on the old one would never see it.
    writeFileSync(join(dir, 'templates', 'c.json'), JSON.stringify(tpl('third')));
    expect(await until(templatesCount(app), (n) => n === 3)).toBe(3);
  });

  it('watches a templates/ folder made after the start, as a first pull into the folder makes it', async () => {
    const dir = fixturesDir({});
    rmSync(join(dir, 'templates'), { recursive: true });
    const app = createApp({ fixturesDir: dir, watch: true, logLevel: 'silent' });
    opened.push(app);
    expect(await templatesCount(app)()).toBe(0);
    swapInTemplates(dir, ['first']);
    expect(await until(templatesCount(app), (n) => n === 1)).toBe(1);
    writeFileSync(join(dir, 'templates', 'b.json'), JSON.stringify(tpl('second')));
    expect(await until(templatesCount(app), (n) => n === 2)).toBe(2);
  });

  it.each([0, 300])(
    'watches a templates/ folder deleted and made again %i ms later (rm -r, then cp -r of another set)',
    async (pauseMs) => {
      const dir = fixturesDir({ 'a.json': tpl('first') });
      const app = createApp({ fixturesDir: dir, watch: true, logLevel: 'silent' });
      opened.push(app);
      expect(await templatesCount(app)()).toBe(1);
      rmSync(join(dir, 'templates'), { recursive: true });
      // With a pause, the watch of the deleted folder sees it go first; without, both changes come at once.
      await new Promise((r) => setTimeout(r, pauseMs));
      mkdirSync(join(dir, 'templates'));
      writeFileSync(join(dir, 'templates', 'a.json'), JSON.stringify([tpl('first'), tpl('second')]));
      expect(await until(templatesCount(app), (n) => n === 2)).toBe(2);
      // An edit in the new folder, which no watch was set on at the start.
      writeFileSync(join(dir, 'templates', 'b.json'), JSON.stringify(tpl('third')));
      expect(await until(templatesCount(app), (n) => n === 3)).toBe(3);
    },
  );

  it('reloads on an edit and keeps the last good set after a bad edit, reporting the file', async () => {
    const dir = fixturesDir({ 'a.json': tpl('first') });
    const errors: string[] = [];
    const logger = { error: (m: string) => errors.push(m), warn: () => {}, info: () => {}, debug: () => {} };
    const app = createApp({ fixturesDir: dir, watch: true, logLevel: 'silent', logger });
    opened.push(app);
    expect(await templatesCount(app)()).toBe(1);

    writeFileSync(join(dir, 'templates', 'b.json'), JSON.stringify([tpl('second'), tpl('third')]));
    expect(await until(templatesCount(app), (n) => n === 3)).toBe(3);
    await templateIdOf(app, 'second');

    writeFileSync(join(dir, 'templates', 'b.json'), '{ broken');
    // Give the watcher time to see the bad file; the previous set must stay.
    await new Promise((r) => setTimeout(r, 400));
    expect(await templatesCount(app)()).toBe(3);
    await templateIdOf(app, 'third');
    expect(errors.join('\n')).toContain(join(dir, 'templates', 'b.json'));

    writeFileSync(join(dir, 'templates', 'b.json'), JSON.stringify(tpl('fourth')));
    expect(await until(templatesCount(app), (n) => n === 2)).toBe(2);
    expectApiError(
      await send(app, { template: { key: 'third' }, targets: ['u'], mode: 'realtime' }),
      404,
      'ERR_NOT_FOUND',
    );
  });

  it('reports a pull that replaced templates/ once, though both watches see it', async () => {
    const dir = fixturesDir({ 'a.json': tpl('first') });
    const reloads: string[] = [];
    const logger = {
      error: () => {},
      warn: () => {},
      info: (m: string) => (m.includes('template(s)') ? reloads.push(m) : undefined),
      debug: () => {},
    };
    const app = createApp({ fixturesDir: dir, scenariosDir: dir, watch: true, logger });
    opened.push(app);
    // What `pull` does: a new templates/ renamed into place, then channels.json beside it.
    const files = new Map([
      ['templates/first.json', JSON.stringify(tpl('first'))],
      ['templates/second.json', JSON.stringify(tpl('second'))],
      ['templates/third.json', JSON.stringify(tpl('third'))],
      ['channels.json', '[]\n'],
    ]);
    writeFixtureSet(dir, files);
    expect(await until(templatesCount(app), (n) => n === 3)).toBe(3);
    await new Promise((r) => setTimeout(r, 600)); // a second report would have come by now
    expect(reloads).toEqual([`reloaded 3 template(s) and 0 channel(s) from ${dir}`]);
  });

  it('reloads apps.json: strict when it appears, open when it goes, a bad edit keeps the previous apps', async () => {
    const dir = fixturesDir({ 'a.json': tpl('first') });
    const lines: string[] = [];
    const logger = {
      error: (m: string) => lines.push(`error: ${m}`),
      warn: () => {},
      info: (m: string) => lines.push(`info: ${m}`),
      debug: () => {},
    };
    const app = createApp({ fixturesDir: dir, scenariosDir: dir, watch: true, logger });
    opened.push(app);
    const status = (appId: string, apiKey: string) => async () =>
      (await send(app, { template: { key: 'first' }, targets: ['u'], mode: 'realtime' }, { appId, apiKey })).status;
    expect(await status('anyone', 'k')()).toBe(200);

    const file = join(dir, 'apps.json');
    writeFileSync(file, JSON.stringify([{ appId: 'shop', apiKey: 's3cret' }]));
    expect(await until(status('anyone', 'k'), (s) => s === 401)).toBe(401);
    expect(await status('shop', 's3cret')()).toBe(200);
    expect((await call<Health>(app, 'GET', '/__health')).body.auth).toBe('strict');
    expect(lines.join('\n')).toContain(`info: reloaded ${file}: 1 app(s) (shop), auth strict`);

    writeFileSync(file, JSON.stringify([{ appId: 'shop' }]));
    await until(
      async () => lines.join('\n'),
      (l) => l.includes('apps.json reload refused'),
    );
    expect(lines.join('\n')).toContain(`${file}: field "0.apiKey"`);
    expect(await status('shop', 's3cret')()).toBe(200);

    writeFileSync(file, JSON.stringify([{ appId: 'shop', apiKey: 'new-key' }]));
    expect(await until(status('shop', 's3cret'), (s) => s === 401)).toBe(401);
    expect(await status('shop', 'new-key')()).toBe(200);

    rmSync(file);
    expect(await until(status('anyone', 'k'), (s) => s === 200)).toBe(200);
    expect((await call<Health>(app, 'GET', '/__health')).body.auth).toBe('open');
    expect(lines.join('\n')).toContain(`info: ${file} is gone or empty: auth open`);
  });
});
