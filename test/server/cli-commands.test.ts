/**
 * Commands that help, as a user runs them (`node dist/cli.js …`): every command answers
 * --help, `help` and an unknown command list them all, a mistyped flag or command gets the
 * name it most likely meant, and `view` speaks of its own file. Plus the library's refusal of
 * a folder that does not exist, and the hint for templates one folder too high.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands.js';
import { ConfigError, createApp, startEmulator } from '../../src/index.js';
import { CLI, cleanEnv } from '../helpers/cli.js';
import { REPO_TEMPLATES } from '../helpers/fixtures.js';

const run = (args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: cleanEnv(), timeout: 20_000 });

const NO_STACK = /^\s+at /m;

describe('every command helps', () => {
  it.each(COMMANDS.map((c) => [c.name]))('%s --help and -h: its usage, exit 0', (name) => {
    for (const flag of ['--help', '-h']) {
      const result = run([name, flag]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      if (name === 'help') expect(result.stdout).toMatch(/^notification-emulator: an emulator/);
      else expect(result.stdout.startsWith(`Usage: notification-emulator ${name} `)).toBe(true);
    }
  });

  it('lists each command in --help with the usage its own --help starts with', () => {
    const top = run(['--help']).stdout;
    for (const command of COMMANDS) {
      expect(top).toContain(`\n  notification-emulator ${command.usage}\n      ${command.summary}\n`);
      if (command.name === 'help') continue;
      const own = run([command.name, '--help']).stdout;
      // A long usage wraps onto an indented second line in a command's own help.
      const usage = /^Usage: (.+(?:\n {5,}.+)?)/.exec(own)![1]!.replace(/\s*\n\s+/g, ' ');
      expect(usage).toBe(`notification-emulator ${command.usage}`);
    }
  });

  it('puts the note pull, check-fixtures and verify share under verify, before the flags', () => {
    const lines = run(['--help']).stdout.split('\n');
    const verify = lines.findIndex((l) => l.startsWith('  notification-emulator verify'));
    expect(verify).toBeGreaterThan(lines.findIndex((l) => l.startsWith('  notification-emulator check-fixtures')));
    expect(lines[verify + 2]).toBe(
      '      (pull, check-fixtures and verify also take --api-key-file F, --timeout-ms N and --max-retries N;',
    );
    expect(lines[verify + 4]).toBe('  notification-emulator help [COMMAND]');
    expect(lines.indexOf('Flags (environment variable in brackets; flags win):')).toBeGreaterThan(verify);
  });

  it('help lists the commands (exit 0); help COMMAND prints that command’s own', () => {
    const help = run(['help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(run(['--help']).stdout);
    for (const command of COMMANDS) expect(help.stdout).toContain(`notification-emulator ${command.usage}`);
    const view = run(['help', 'view']);
    expect(view.status).toBe(0);
    expect(view.stdout).toMatch(/^Usage: notification-emulator view FILE \[flags\]\n/);
  });
});

describe('a mistyped command or flag', () => {
  it('an unknown command: the nearest one, then every command, exit 2', () => {
    const result = run(['viwe', 'trace.json']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^notification-emulator: unknown command "viwe" \(did you mean "view"\?\)\nUsage:\n/);
    for (const command of COMMANDS) expect(result.stderr).toContain(`  notification-emulator ${command.usage}\n`);
    expect(result.stderr).not.toMatch(NO_STACK);
  });

  it('a word near no command gets the list without a guess', () => {
    const result = run(['serve-everything']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^notification-emulator: unknown command "serve-everything"\nUsage:\n/);
  });

  it.each([
    [['--prot', '5110'], "Unknown option '--prot'. Did you mean --port? Run with --help for the list of flags."],
    [['--data-fille=x.json'], "Unknown option '--data-fille'. Did you mean --data-file? Run with --help"],
    [['view', 't.json', '--seeed', '1'], "Unknown option '--seeed'. Did you mean --seed?"],
    [['generate-csv', '--template', 'x', '--rwos', '3'], "Unknown option '--rwos'. Did you mean --rows?"],
    [['pull', '--app-di', 'a'], "Unknown option '--app-di'. Did you mean --app-id?"],
    [['check-fixtures', '--regin', 'eu'], "Unknown option '--regin'. Did you mean --region?"],
  ])('%j names the flag meant, exit 2', (args, words) => {
    const result = run(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(words);
    expect(result.stderr).not.toMatch(NO_STACK);
  });

  it('a flag near none gets no guess', () => {
    const result = run(['--zzzzzz']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown option '--zzzzzz'. Run with --help for the list of flags.");
  });
});

describe('view', () => {
  it("names view's file when it cannot be read, not a flag never typed", () => {
    const result = run(['view', 'nope.json']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^notification-emulator: cannot start:\n {2}- view nope\.json cannot be read \(/);
    expect(result.stderr).not.toContain('--import');
    expect(result.stderr).not.toMatch(NO_STACK);
  });

  it('without a file: says to name one, exit 2', () => {
    const result = run(['view']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('view: name the trace file to open (notification-emulator view trace.json)');
  });
});

describe('folders', () => {
  it.each([
    [{ fixturesDir: '/no/such/fixtures' }, 'options.fixturesDir: the folder "/no/such/fixtures" does not exist'],
    [{ scenariosDir: 'no-such-scenarios' }, 'options.scenariosDir: the folder "no-such-scenarios" does not exist'],
  ])('createApp(%j) refuses a folder that does not exist, as the CLI does', (options, problem) => {
    const error = (() => {
      try {
        createApp({ watch: false, logLevel: 'silent', ...options });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems[0]).toContain(problem);
  });

  it('startEmulator refuses it too, before it listens', async () => {
    await expect(startEmulator({ port: 0, fixturesDir: '/no/such/fixtures', logLevel: 'silent' })).rejects.toThrow(
      /options\.fixturesDir: the folder "\/no\/such\/fixtures" does not exist/,
    );
  });

  it('templates at the top of the fixtures folder: the warning says to move them into templates/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-flat-fixtures-'));
    cpSync(join(REPO_TEMPLATES, 'welcome-message.json'), join(dir, 'welcome-message.json'));
    const warnings: string[] = [];
    const logger = { error: () => {}, warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {} };
    const app = createApp({ watch: false, fixturesDir: dir, logger });
    await app.close();
    expect(warnings).toEqual([
      `no templates found in ${join(dir, 'templates')}: every send will answer 404 until one is added; ` +
        `${dir} holds 1 JSON file(s) at its top (welcome-message.json): templates go one level down, so move ` +
        `them into ${join(dir, 'templates')}`,
    ]);
  });
});
