/**
 * Fixture templates and scenarios get the nesting limit of request bodies (64 levels): deeper
 * content used to load and then overflow the stack at every send that rendered it.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, createApp } from '../../src/index.js';
import { parseScenario } from '../../src/scenario-engine/load-scenarios.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-depth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `levels` containers, one inside the other. */
const nested = (levels: number): unknown => (levels <= 1 ? {} : { a: nested(levels - 1) });

/** A template `depth` levels deep (the template object is level 1; a list of templates is not counted). */
const templateOfDepth = (depth: number) => ({
  key: 'deep',
  name: 'Deep',
  status: 'approved',
  variableSchema: [],
  // template → content → in_app → data → …
  content: { in_app: { title: 'Hi', data: nested(depth - 3) } },
});

const load = (templates: unknown[]) => createApp({ templates, watch: false, logLevel: 'silent' });

describe('fixture depth', () => {
  it('loads a template 64 levels deep and sends with it; refuses 65 naming the limit', async () => {
    const app = load([templateOfDepth(64)]);
    const sent = await app.request('/api/notifications/send', {
      method: 'POST',
      headers: { appid: 'a', apikey: 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ template: { key: 'deep' }, targets: ['u1'], mode: 'realtime' }),
    });
    expect(sent.status).toBe(200);
    await app.close();
    expect(() => load([templateOfDepth(65)])).toThrow(ConfigError);
    expect(() => load([templateOfDepth(65)])).toThrow(/options.templates: nested more than 64 levels deep/);
  });

  it('names the file of a template folder that is too deep', () => {
    const fixtures = join(dir, 'fixtures');
    mkdirSync(join(fixtures, 'templates'), { recursive: true });
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const file = JSON.stringify(templateOfDepth(4)).replace('{}', deep);
    writeFileSync(join(fixtures, 'templates', 'deep.json'), `[${file}]`);
    expect(() => createApp({ fixturesDir: fixtures, watch: false, logLevel: 'silent' })).toThrow(
      /deep\.json: nested more than 64 levels deep/,
    );
  });

  it('words a refused variable type by its kind, whatever its size or depth', () => {
    const bad = { ...templateOfDepth(4), variableSchema: [{ key: 'v', type: nested(60) }] };
    expect(() => load([bad])).toThrow(/must be one of "string", "image", "action" \(got an object\)/);
    const long = { ...templateOfDepth(4), variableSchema: [{ key: 'v', type: 'x'.repeat(1000) }] };
    expect(() => load([long])).toThrow(/\(got "x{40}…"\)/);
  });

  it('refuses a scenario nested more than 64 levels deep', () => {
    const rule = (body: unknown) => ({ match: { path: '/api/*' }, fault: { status: 200, body } });
    expect(parseScenario({ name: 's', rules: [rule(nested(60))] }, 's.json')).toHaveProperty('scenario');
    expect(parseScenario({ name: 's', rules: [rule(nested(10_000))] }, 's.json')).toEqual({
      problems: ['s.json: nested more than 64 levels deep (the limit for request bodies too)'],
      details: { '(body)': 'nested more than 64 levels deep (the limit for request bodies too)' },
    });
  });
});
