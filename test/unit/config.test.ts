/**
 * loadConfig (docs/reference.md#running-it): flags win over env, defaults, EMULATOR_APPS parsing, and every
 * bad flag or value reported as a ConfigError naming it.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseSize, resolveFolders } from '../../src/index.js';
import { FLAGS_HELP as HELP } from '../../src/config.js';

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
    [['--body-limit', '1024'], { EMULATOR_BODY_LIMIT: '5mb' }, { bodyLimitBytes: 1024 }],
    [[], { EMULATOR_BODY_LIMIT: '5mb' }, { bodyLimitBytes: 5 * 1024 * 1024 }],
    [['--body-limit', '512KB'], {}, { bodyLimitBytes: 512 * 1024 }],
    [['--body-limit', '1.5m'], {}, { bodyLimitBytes: 1.5 * 1024 * 1024 }],
    [['--upload-limit', '1gb'], { EMULATOR_UPLOAD_LIMIT: '1' }, { uploadLimitBytes: 1024 ** 3 }],
    [[], { EMULATOR_UPLOAD_LIMIT: '200mb' }, { uploadLimitBytes: 200 * 1024 * 1024 }],
  ])('%j with env %j gives %j', (argv, env, expected) => {
    expect(options(argv as string[], env as Record<string, string>)).toMatchObject(expected);
  });

  it('parses EMULATOR_APPS into apps, with a region only when one is given', () => {
    expect(options([], { EMULATOR_APPS: 'app1:key1, app2:key2:eu,' }).apps).toEqual([
      { appId: 'app1', apiKey: 'key1' },
      { appId: 'app2', apiKey: 'key2', region: 'eu' },
    ]);
  });

  it.each(['app1', 'app1:', ':key', 'good:k,bad', 'a:k:e u'])('refuses EMULATOR_APPS=%j naming the entry', (value) => {
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
    [['--body-limit', 'lots'], /^--body-limit: .*got "lots"/],
    [['--body-limit', '0'], /^--body-limit: /],
    [['--body-limit', '10tb'], /^--body-limit: /],
    [['--upload-limit=-5'], /^--upload-limit: /],
  ])('refuses %j with a message naming it', (argv, pattern) => {
    expect(problems(argv)).toMatch(pattern);
  });

  it.each([
    [['--port', '1e3'], {}, /^--port: expected a whole number from 0 to 65535, written in digits \(got "1e3"\)/],
    [['--port', '0x10'], {}, /^--port: expected a whole number/],
    [['--max-journal', '2.5'], {}, /^--max-journal: expected a whole number/],
    [[], { PORT: ' ' }, /^PORT: expected a whole number/],
    [[], { EMULATOR_SEED: '+7' }, /^EMULATOR_SEED: expected a whole number/],
    [['--seed', '99999999999999999999'], {}, /^--seed: expected a whole number from 0 to 2,147,483,647, written/],
  ])('refuses %j %j: numbers are digits only, as in every command', (argv, env, pattern) => {
    expect(problems(argv, env)).toMatch(pattern);
  });

  it('reads digits with spaces around them, from a flag or a variable', () => {
    expect(options(['--port', ' 8080 '], { EMULATOR_MAX_JOURNAL: '25 ' })).toMatchObject({
      port: 8080,
      maxJournal: 25,
    });
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

  it('reads a negative number after a flag as its value, and says in one line what the flag accepts', () => {
    const port = '--port: expected a whole number from 0 to 65535, written in digits';
    expect(problems(['--port', '-1'])).toBe(`${port} (got "-1")`);
    expect(problems(['--port=-1'])).toBe(`${port} (got "-1")`);
    expect(problems(['--port', '70000'])).toBe(`${port} (got "70000")`);
    expect(problems(['--seed', '-5', '--no-watch'])).toMatch(
      /^--seed: expected a whole number from 0 to 2,147,483,647/,
    );
    expect(problems(['--nope'])).toMatch(/^Unknown option '--nope'.*\. Run with --help for the list of flags\.$/);
  });

  it('says what a size flag accepts, showing the value as given', () => {
    const size = 'expected a size in bytes, or with a unit: 512kb, 50mb, 1gb (at most 2gb)';
    expect(problems(['--body-limit', '5xb'])).toBe(`--body-limit: ${size} (got "5xb")`);
    expect(problems(['--upload-limit', '3gb'])).toBe(`--upload-limit: ${size} (got "3gb")`);
  });

  it('names EMULATOR_BODY_LIMIT when only the env value is bad', () => {
    expect(problems([], { EMULATOR_BODY_LIMIT: 'big' })).toMatch(/^EMULATOR_BODY_LIMIT: /);
  });

  it('answers version for --version and -v, before any other flag is checked', () => {
    expect(loadConfig(['--version'], {})).toEqual({ kind: 'version' });
    expect(loadConfig(['-v', '--port', 'abc'], {})).toEqual({ kind: 'version' });
  });

  it('says whether the fixtures and scenarios folders were named', () => {
    const named = (argv: string[], env: Record<string, string> = {}) => {
      const command = loadConfig(argv, env);
      return command.kind === 'serve' ? command.named : undefined;
    };
    expect(named([])).toEqual({ fixtures: false, scenarios: false });
    expect(named(['--fixtures', 'f'])).toEqual({ fixtures: true, scenarios: false });
    expect(named([], { EMULATOR_SCENARIOS_DIR: 's' })).toEqual({ fixtures: false, scenarios: true });
  });

  it('reads every flag and variable --help lists', () => {
    const flags = [...HELP.matchAll(/^ {2}(?:-\w, )?--([a-z-]+) [A-Z]/gm)].map((m) => `--${m[1]!}`);
    const variables = [...HELP.matchAll(/\[([A-Z_]+)(?:=[^\]]*)?\]/g)].map((m) => m[1]!);
    expect([flags.length, variables.length]).toEqual([25, 25]);
    expect(HELP).toContain('EMULATOR_APPS="app1:key1[:region],app2:key2"');
    variables.push('EMULATOR_APPS');
    const defaults = JSON.stringify(options([]));
    // Read: the options change, or the value is refused by that name.
    const reads = (name: string, argv: string[], env: Record<string, string>) => {
      try {
        return JSON.stringify(options(argv, env)) !== defaults;
      } catch (error) {
        return (error as ConfigError).problems.some((problem) => problem.startsWith(`${name}: `));
      }
    };
    for (const flag of flags) expect(reads(flag, [flag, '7'], {}), flag).toBe(true);
    for (const name of variables) expect(reads(name, [], { [name]: '7' }), name).toBe(true);
  });

  it('reads --allowed-hosts and --allowed-origins as comma-separated lists (flags win over env)', () => {
    expect(options([]).allowedHosts).toEqual([]);
    expect(options([]).allowedOrigins).toEqual([]);
    expect(options(['--allowed-hosts', 'emu.example, .corp.example'])).toMatchObject({
      allowedHosts: ['emu.example', '.corp.example'],
    });
    expect(
      options(['--allowed-origins', 'http://localhost:5173'], {
        EMULATOR_ALLOWED_ORIGINS: 'https://a.example',
        EMULATOR_ALLOWED_HOSTS: '*',
      }),
    ).toMatchObject({ allowedHosts: ['*'], allowedOrigins: ['http://localhost:5173'] });
  });

  it('refuses an allowed host or origin that is not one, naming the flag or variable', () => {
    expect(problems(['--allowed-hosts', 'emu.example:4010'])).toMatch(/^--allowed-hosts: expected a host name/);
    expect(problems([], { EMULATOR_ALLOWED_ORIGINS: 'tools.example' })).toMatch(
      /^EMULATOR_ALLOWED_ORIGINS: expected an origin such as https:\/\/tools.example:8443/,
    );
  });

  it('reads the proxy mode: --upstream or --upstream-region (not both), and the timeout', () => {
    const live = 'https://shop.api-eu.example.com/v3/business-messaging';
    expect(options([])).toMatchObject({ upstream: undefined, upstreamRegion: undefined, upstreamTimeoutMs: 30_000 });
    expect(options(['--upstream', live, '--upstream-timeout-ms', '500'])).toMatchObject({
      upstream: live,
      upstreamTimeoutMs: 500,
    });
    expect(options([], { EMULATOR_UPSTREAM_REGION: 'eu', EMULATOR_UPSTREAM_TIMEOUT_MS: '10' })).toMatchObject({
      upstreamRegion: 'eu',
      upstreamTimeoutMs: 10,
    });
    expect(options(['--upstream', 'http://localhost:4011'], { EMULATOR_UPSTREAM: live }).upstream).toBe(
      'http://localhost:4011',
    );
    expect(problems(['--upstream', live, '--upstream-region', 'eu'])).toMatch(
      /^--upstream-region: expected either an upstream URL or an upstream region, not both/,
    );
    for (const bad of ['ftp://live.example', 'live.example', 'https://live.example/?x=1', 'https://u:p@live.example'])
      expect(problems(['--upstream', bad])).toMatch(/^--upstream: expected an http:\/\/ or https:\/\/ URL/);
    expect(problems([], { EMULATOR_UPSTREAM_REGION: 'eu.west' })).toMatch(
      /^EMULATOR_UPSTREAM_REGION: expected a region/,
    );
    expect(problems(['--upstream-timeout-ms', '0'])).toMatch(/^--upstream-timeout-ms: expected a whole number from 1/);
  });

  it('answers help for --help and -h', () => {
    expect(loadConfig(['--help'], {})).toEqual({ kind: 'help' });
    expect(loadConfig(['-h'], {})).toEqual({ kind: 'help' });
  });
});

describe('resolveFolders', () => {
  const bundled = { fixtures: '/pkg/fixtures', scenarios: '/pkg/scenarios' };
  const defaults = options([]);
  const resolveWith = (existing: string[], named = { fixtures: false, scenarios: false }, opts = defaults) =>
    resolveFolders(opts, named, (p) => existing.includes(p), bundled);

  it('keeps ./fixtures and ./scenarios when they are emulator folders', () => {
    const { options: o, source } = resolveWith(['fixtures/templates', './scenarios', ...Object.values(bundled)]);
    expect([o.fixturesDir, o.scenariosDir]).toEqual(['./fixtures', './scenarios']);
    expect(source).toEqual({ fixtures: 'default', scenarios: 'default' });
  });

  it('keeps ./fixtures holding only an apps.json', () => {
    expect(resolveWith(['fixtures/apps.json', ...Object.values(bundled)]).options.fixturesDir).toBe('./fixtures');
  });

  it('falls back to the bundled examples when the defaults are missing (or ./fixtures is unrelated)', () => {
    const { options: o, source } = resolveWith(['./fixtures', ...Object.values(bundled)]);
    expect([o.fixturesDir, o.scenariosDir]).toEqual([bundled.fixtures, bundled.scenarios]);
    expect(source).toEqual({ fixtures: 'bundled', scenarios: 'bundled' });
  });

  it('refuses named folders that do not exist, listing both', () => {
    const opts = { ...defaults, fixturesDir: 'my-fixtures', scenariosDir: 'my-scenarios' };
    let error: unknown;
    try {
      resolveWith(Object.values(bundled), { fixtures: true, scenarios: true }, opts);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      '--fixtures / EMULATOR_FIXTURES: the folder "my-fixtures" does not exist ' +
        '(it should hold templates/*.json and optionally apps.json)',
      '--scenarios / EMULATOR_SCENARIOS_DIR: the folder "my-scenarios" does not exist ' +
        '(it should hold scenario *.json files)',
    ]);
  });

  it('keeps a named folder that exists, even without templates/', () => {
    const opts = { ...defaults, fixturesDir: 'empty' };
    const { options: o, source } = resolveWith(
      ['empty', ...Object.values(bundled)],
      { fixtures: true, scenarios: false },
      opts,
    );
    expect(o.fixturesDir).toBe('empty');
    expect(source.fixtures).toBe('named');
  });
});

describe('parseSize', () => {
  it.each([
    ['1', 1],
    ['52428800', 52428800],
    ['1k', 1024],
    [' 2 KB ', 2048],
    ['50mb', 50 * 1024 * 1024],
    ['1G', 1024 ** 3],
  ])('%j → %d bytes', (value, bytes) => {
    expect(parseSize(value)).toBe(bytes);
  });

  it.each(['', 'x', '10tb', '-1', '1e6'])('leaves %j for the schema to refuse', (value) => {
    expect(parseSize(value)).toBe(value);
  });
});
