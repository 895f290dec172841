/**
 * loadConfig (CONTRACT §9): flags win over env, defaults, EMULATOR_APPS parsing, and every
 * bad flag or value reported as a ConfigError naming it.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/index.js';

function options(argv: string[], env: Record<string, string> = {}) {
  const command = loadConfig(argv, env);
  if (command.kind !== 'serve') throw new Error('expected serve');
  return command.options;
}

function problems(argv: string[], env: Record<string, string> = {}): string {
  try {
    loadConfig(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join('\n');
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(options([])).toMatchObject({
      port: 4010,
      host: '127.0.0.1',
      fixturesDir: './fixtures',
      scenariosDir: './scenarios',
      activeScenarios: [],
      maxDeliveries: 1_000_000,
      logLevel: 'info',
      apps: [],
      watch: true,
    });
  });

  it.each([
    [['--port', '0'], {}, { port: 0 }],
    [[], { PORT: '5000' }, { port: 5000 }],
    [['--port', '6000'], { PORT: '5000' }, { port: 6000 }],
    [['--host', '0.0.0.0'], { HOST: 'h' }, { host: '0.0.0.0' }],
    [[], { HOST: 'h' }, { host: 'h' }],
    [['--fixtures', 'f1'], { EMULATOR_FIXTURES: 'f2' }, { fixturesDir: 'f1' }],
    [[], { EMULATOR_FIXTURES: 'f2' }, { fixturesDir: 'f2' }],
    [['--scenarios', 's1'], { EMULATOR_SCENARIOS_DIR: 's2' }, { scenariosDir: 's1' }],
    [['--scenario', 'a', '--scenario', 'b'], { EMULATOR_SCENARIOS: 'c' }, { activeScenarios: ['a', 'b'] }],
    [[], { EMULATOR_SCENARIOS: 'c, d' }, { activeScenarios: ['c', 'd'] }],
    [['--data-file', 'x.json'], { EMULATOR_DATA_FILE: 'y.json' }, { dataFile: 'x.json' }],
    [['--seed', '7'], { EMULATOR_SEED: '8' }, { seed: 7 }],
    [[], { EMULATOR_SEED: '8' }, { seed: 8 }],
    [['--admin-token', 't1'], { EMULATOR_ADMIN_TOKEN: 't2' }, { adminToken: 't1' }],
    [['--max-deliveries', '10'], {}, { maxDeliveries: 10 }],
    [['--max-journal', '5'], { EMULATOR_MAX_JOURNAL: '6' }, { maxJournal: 5 }],
    [[], { EMULATOR_MAX_JOURNAL: '6' }, { maxJournal: 6 }],
    [[], {}, { maxJournal: 10_000 }],
    [['--log-level', 'silent'], { EMULATOR_LOG_LEVEL: 'debug' }, { logLevel: 'silent' }],
    [['--no-watch'], {}, { watch: false }],
  ])('%j with env %j gives %j', (argv, env, expected) => {
    expect(options(argv as string[], env as Record<string, string>)).toMatchObject(expected);
  });

  it('parses EMULATOR_APPS into apps with a default region', () => {
    expect(options([], { EMULATOR_APPS: 'app1:key1, app2:key2:eu,' }).apps).toEqual([
      { appId: 'app1', apiKey: 'key1', region: 'us' },
      { appId: 'app2', apiKey: 'key2', region: 'eu' },
    ]);
  });

  it.each(['app1', 'app1:', ':key', 'good:k,bad'])('refuses EMULATOR_APPS=%j naming the entry', (value) => {
    expect(problems([], { EMULATOR_APPS: value })).toMatch(/EMULATOR_APPS/);
  });

  it.each([
    [['--port', 'abc'], /--port/],
    [['--port', '70000'], /--port/],
    [['--port', '-1'], /--port/],
    [['--log-level', 'loud'], /--log-level/],
    [['--max-deliveries', '0'], /--max-deliveries/],
    [['--max-journal', '0'], /--max-journal/],
    [['--max-journal', 'many'], /--max-journal/],
    [['--seed', 'x'], /--seed/],
    [['--nope'], /nope/],
    [['stray'], /stray/],
    [['--port'], /port/],
  ])('refuses %j with a message naming it', (argv, pattern) => {
    expect(problems(argv)).toMatch(pattern);
  });

  it('treats an empty env variable as unset and refuses an empty flag value', () => {
    expect(options([], { PORT: '', EMULATOR_SEED: '' })).toMatchObject({ port: 4010, seed: undefined });
    expect(problems(['--port', ''])).toMatch(/--port: needs a value/);
  });

  it('names the env variable when only the env value is bad', () => {
    expect(problems([], { PORT: 'abc' })).toMatch(/^PORT: /);
    expect(problems([], { EMULATOR_LOG_LEVEL: 'loud' })).toMatch(/^EMULATOR_LOG_LEVEL: /);
    expect(problems(['--port', 'x'], { PORT: '1' })).toMatch(/^--port: /);
  });

  it('lists every problem at once', () => {
    const text = problems(['--port', 'abc', '--log-level', 'loud'], { EMULATOR_APPS: 'bad' });
    expect(text).toMatch(/--port/);
    expect(text).toMatch(/--log-level/);
    expect(text).toMatch(/EMULATOR_APPS/);
  });

  it('answers help for --help and -h', () => {
    expect(loadConfig(['--help'], {})).toEqual({ kind: 'help' });
    expect(loadConfig(['-h'], {})).toEqual({ kind: 'help' });
  });
});
