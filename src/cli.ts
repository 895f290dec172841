#!/usr/bin/env node
/**
 * The command line: flags + env → options → startEmulator. Prints the startup line with
 * the bound address, then what was loaded; stops cleanly on SIGTERM/SIGINT, and when the
 * npm process that started it (`npm start`, `npx`) is gone. The only file that exits the process.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './domain/errors.js';
import { loadConfig, resolveFolders, type EmulatorOptions, type FolderChoice } from './config.js';
import { commandList, findCommand, helpText, UnknownCommand } from './commands.js';
import { startEmulator, type RunningEmulator } from './server.js';
import { VERSION } from './version.js';

async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  // A first word that is not a flag names a command (`view`, `help`…), a known one or not.
  if (first !== undefined && !first.startsWith('-')) return findCommand(first).run(argv.slice(1), serve);
  return serve(argv);
}

/** Starts the emulator with `argv`'s flags; `viewing`: as `view FILE`, whose errors name its file. */
async function serve(argv: string[], viewing?: { file: string }): Promise<number> {
  let command: ReturnType<typeof loadConfig>;
  try {
    command = loadConfig(argv, process.env);
  } catch (error) {
    throw viewing ? asViewProblem(error) : error;
  }
  if (command.kind === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const { options, source } = resolveFolders(command.options, command.named);
  // Handlers before the start: a supervisor may send SIGTERM as soon as it sees any output.
  let running: RunningEmulator | undefined;
  let stopRequested: string | undefined;
  const stop = (reason: string) => {
    if (!running) {
      stopRequested = reason;
      return;
    }
    running.app.emulator.logger.info(`${reason}, stopping`);
    const { exportOnExit } = running.app.emulator.options;
    const app = running.app;
    running
      .close()
      .then(() => (exportOnExit ? writeExitTrace(app, exportOnExit) : undefined))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`error while stopping: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM received'));
  process.once('SIGINT', () => stop('SIGINT received'));
  try {
    running = await startEmulator(libraryOptions(options, source));
  } catch (error) {
    throw viewing ? asViewProblem(error) : error;
  }
  if (stopRequested) {
    stop(stopRequested);
    return -1;
  }
  exitWithNpm(() => stop('the npm process that started the emulator is gone'));
  process.stdout.write(`notification-emulator listening on ${shownUrl(running, options.host)}\n`);
  if (viewing) process.stdout.write(`trace ${viewing.file} opened; web inspector: ${running.url}/__/\n`);
  for (const line of startupSummary(running, source)) running.app.emulator.logger.info(line);
  return -1; // keep running
}

/** `view FILE`'s trace travels as --import: a problem with it names `view`, the command typed. */
function asViewProblem(error: unknown): unknown {
  if (!(error instanceof ConfigError)) return error;
  return new ConfigError(error.problems.map((p) => p.replace(/^--import /, 'view ')));
}

/** --export-on-exit: the state as it was at the stop, written whole (temp file + rename), said in one line. */
async function writeExitTrace(app: RunningEmulator['app'], file: string): Promise<void> {
  const { captureTrace } = await import('./trace/capture.js');
  const { writeTraceFile } = await import('./trace/file.js');
  const source = captureTrace(app.emulator);
  await writeTraceFile(file, source);
  const { deliveries, journal } = app.emulator.store.stats();
  app.emulator.logger.info(
    `wrote the trace to ${resolve(file)} ` +
      `(${deliveries} deliveries, ${journal} requests, exported at ${source.exportedAt})`,
  );
}

/** The address actually bound: 0.0.0.0 (or ::) when that was asked, with the local URL beside it. */
function shownUrl(running: RunningEmulator, host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return running.url;
  const bound = `http://${host === '::' ? '[::]' : host}:${running.port}`;
  return `${bound} (every interface; from this machine: ${running.url})`;
}

function startupSummary(running: RunningEmulator, source: FolderChoice): string[] {
  const { emulator } = running.app;
  const { options } = emulator;
  const fixtures = resolve(options.fixturesDir);
  const templates = emulator.templates.count();
  const apps = emulator.apps.list();
  const active = emulator.scenarios.active();
  const scenarioCount = emulator.scenarios.names().length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const bundled = (what: 'fixtures' | 'scenarios') =>
    source[what] === 'bundled' ? `, the bundled examples: no ./${what} here and no --${what} given` : '';
  const appList = apps.map((a) => (a.region ? `${a.appId}/${a.region}` : a.appId)).join(', ');
  const appsFrom = options.apps.length ? 'EMULATOR_APPS' : resolve(fixtures, 'apps.json');
  const limits = `JSON ${size(options.bodyLimitBytes)}, CSV upload ${size(options.uploadLimitBytes)}`;
  return [
    `version ${VERSION}, node ${process.version}`,
    `fixtures: ${fixtures} (${plural(templates, 'template')})${bundled('fixtures')}`,
    `scenarios: ${resolve(options.scenariosDir)} (${scenarioCount} loaded)${bundled('scenarios')}; ` +
      `active: ${active.length ? active.join(', ') : 'none'}`,
    `data: ${options.dataFile ? `file ${resolve(options.dataFile)}` : 'in memory (use --data-file to keep it)'}`,
    proxyLine(options) ??
      (emulator.apps.mode === 'strict'
        ? `auth: strict, ${plural(apps.length, 'app')} (${appList}) from ${appsFrom}`
        : 'auth: open (any non-empty appid + apikey pair; the app is created on first use)'),
    `admin token: ${options.adminToken ? 'required on /__… ("authorization: Bearer <token>")' : 'not required'}`,
    `watching files: ${options.watch ? 'yes' : 'no (--no-watch)'}; body limits: ${limits}`,
  ];
}

/** Proxy mode's startup line (it replaces the auth line: the live service checks the keys), or null. */
function proxyLine(options: RunningEmulator['app']['emulator']['options']): string | null {
  const target =
    options.upstream ?? (options.upstreamRegion && `each app's own host in region ${options.upstreamRegion}`);
  if (!target) return null;
  return (
    `proxy mode: every API call is forwarded to ${target} (timeout ${options.upstreamTimeoutMs} ms) ` +
    "unless a scenario fault answers it; auth is the live service's"
  );
}

/** 52428800 → "50 MB", 1536 → "1.5 KB", 1000 → "1000 bytes". */
function size(bytes: number): string {
  for (const [unit, factor] of [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ] as const)
    if (bytes >= factor) return `${Number((bytes / factor).toFixed(2))} ${unit}`;
  return `${bytes} bytes`;
}

/**
 * `npm start` and `npx` run the CLI under a shell that npm does not always pass SIGTERM to,
 * so `kill $NPM_PID` would leave the server holding its port, and `kill -9` of npm always
 * does. Under those two commands only (not `npm run x`, where `cmd &` may mean to outlive
 * npm), stop when the npm process is gone: a link of the chain up to it (us → shell → npm)
 * changes, as the orphan is adopted by another process. Checked every 250 ms, so the server
 * stops within a second.
 */
function exitWithNpm(onGone: () => void): void {
  const chain = npmChain();
  if (chain === null) return;
  const timer = setInterval(() => {
    if (chain.every(linkHolds)) return;
    clearInterval(timer);
    onGone();
  }, 250);
  timer.unref();
}

/** A child and the parent it had when the emulator started. */
interface ParentLink {
  pid: number;
  parent: number;
}

/**
 * The parent links from this process up to the npm process, when started by `npm start` /
 * `npx` (npm_command start or exec) and, on Linux, the parent really is that npm process or
 * the shell it runs scripts in: the variables are inherited by everything below `npx vitest`
 * too, where a test's own `sh -c "… &"` must be free to outlive its shell. Null otherwise.
 */
function npmChain(): ParentLink[] | null {
  const command = process.env.npm_command;
  if (command !== 'start' && command !== 'exec') return null;
  const self: ParentLink = { pid: process.pid, parent: process.ppid };
  try {
    const name = (pid: number) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    const parent = process.ppid;
    if (name(parent).startsWith('npm')) return [self];
    const grandparent = parentOf(parent);
    if (/^(sh|bash|dash|ash|zsh)$/.test(name(parent)) && name(grandparent).startsWith('npm'))
      return [self, { pid: parent, parent: grandparent }];
    return null;
  } catch {
    return [self]; // no /proc (macOS): the environment has to do
  }
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function linkHolds(link: ParentLink): boolean {
  try {
    // Linux: the live parent id (a dead parent leaves its child reparented; a zombie still answers kill 0).
    return parentOf(link.pid) === link.parent;
  } catch {
    if (link.pid !== process.pid) return false; // the shell itself is gone
    try {
      process.kill(link.parent, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
}

/** Why the socket could not listen, in a user's words, with the flag that fixes it (by system error code). */
const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use; pick another with --port or PORT',
  EACCES: 'ports below 1024 need privileges; pick another with --port or PORT',
  EADDRNOTAVAIL: "the address is not one of this machine's; use --host 127.0.0.1 (or 0.0.0.0 for every interface)",
  ENOTFOUND: 'the host name does not resolve; use --host 127.0.0.1 (or 0.0.0.0 for every interface)',
  EAI_AGAIN: 'the host name could not be resolved now; use --host 127.0.0.1 (or 0.0.0.0 for every interface)',
};

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof UnknownCommand) {
      process.stderr.write(`notification-emulator: ${error.message}\n${commandList()}`);
      process.exit(2);
    }
    if (error instanceof ConfigError) {
      process.stderr.write(
        `notification-emulator: cannot start:\n${error.problems.map((p) => `  - ${p}`).join('\n')}\n`,
      );
      process.exit(2);
    }
    const problem = LISTEN_PROBLEMS[(error as NodeJS.ErrnoException).code ?? ''];
    if (problem) {
      process.stderr.write(`notification-emulator: cannot listen: ${problem} (${(error as Error).message}).\n`);
      process.exit(1);
    }
    process.stderr.write(`notification-emulator: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);

/**
 * The options as startEmulator takes them: a folder left to its default (none named, no
 * bundled one used) is left out, so the library applies the same default rather than reading
 * it as a folder the user named, which must exist.
 */
function libraryOptions(options: EmulatorOptions, source: FolderChoice): Partial<EmulatorOptions> {
  const { fixturesDir, scenariosDir, ...rest } = options;
  return {
    ...rest,
    ...(source.fixtures === 'default' ? {} : { fixturesDir }),
    ...(source.scenarios === 'default' ? {} : { scenariosDir }),
  };
}
