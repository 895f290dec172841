/**
 * The CLI's commands besides serving, one row each: its name, its usage line (the same as its
 * own --help's), what it does, and how it runs. `--help`, `help` and an unknown command are
 * all answered from this table, so a new command joins them with one row.
 */
import { ConfigError } from './domain/errors.js';
import { closestName } from './domain/did-you-mean.js';
import { FLAGS_HELP } from './config.js';

/** Starts the emulator with these flags (`view`: its trace as --import); the exit code, negative to keep running. */
export type Serve = (argv: string[], viewing?: { file: string }) => Promise<number>;

export interface Command {
  name: string;
  /** After "notification-emulator ": its usage, as its own --help starts. */
  usage: string;
  summary: string;
  /** Lines under the summary (what several commands share). */
  note?: string;
  run(argv: string[], serve: Serve): Promise<number>;
}

const VIEW_HELP = `Usage: notification-emulator view FILE [flags]

Opens a trace (a file from GET /__export or --export-on-exit) in an emulator on a free port
and prints the web inspector's address. It takes the emulator's flags (--port N for a fixed
port; notification-emulator --help lists them).
  -h, --help   show this help
`;

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

/** `view FILE [flags]`: the serve flags it means, the trace imported, a free port unless one is named. */
function runView(args: string[], serve: Serve): Promise<number> {
  if (args.some(isHelp)) {
    process.stdout.write(VIEW_HELP);
    return Promise.resolve(0);
  }
  const [file, ...flags] = args;
  if (file === undefined || file.startsWith('-'))
    throw new ConfigError(['view: name the trace file to open (notification-emulator view trace.json)']);
  const named = (flag: string) => flags.some((f) => f === flag || f.startsWith(`${flag}=`));
  return serve([...flags, '--import', file, ...(named('--port') ? [] : ['--port', '0'])], { file });
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'view',
    usage: 'view FILE [flags]',
    summary: 'open a trace in the web inspector on a free port',
    run: runView,
  },
  {
    name: 'generate-csv',
    usage: 'generate-csv --template KEY --rows N [--seed S] [--fixtures DIR] [--out FILE]',
    summary: "write a recipients CSV of fake data for a template's variables",
    // Loaded on demand: faker is heavy and the server never needs it.
    run: async (argv) => (await import('./tools/generate-csv.js')).runGenerateCsv(argv),
  },
  {
    name: 'pull',
    usage: 'pull --app-id A (--region R | --base-url URL) [--out DIR]',
    summary: "write fixtures from a live account's templates and channels",
    run: async (argv) => (await import('./tools/live-commands.js')).runPull(argv),
  },
  {
    name: 'check-fixtures',
    usage: 'check-fixtures --app-id A (--region R | --base-url URL) [--fixtures DIR] [--json]',
    summary: 'compare the fixtures with a live account (exit 1 on breaking drift)',
    run: async (argv) => (await import('./tools/live-commands.js')).runCheckFixtures(argv),
  },
  {
    name: 'verify',
    usage: 'verify --app-id A (--region R | --base-url URL) [--json] [--junit FILE]',
    summary: 'send the same safe probes to a live account and to an emulator holding its templates',
    note:
      '(pull, check-fixtures and verify also take --api-key-file F, --timeout-ms N and --max-retries N;\n' +
      'they read the API key from EMULATOR_PULL_API_KEY or that file, never from a flag)',
    run: async (argv) => {
      // The emulator it compares against is started in this process, from the account's templates.
      const [{ runVerify }, { startAccountEmulator }] = await Promise.all([
        import('./tools/verify/command.js'),
        import('./server.js'),
      ]);
      return runVerify(argv, startAccountEmulator);
    },
  },
  {
    name: 'help',
    usage: 'help [COMMAND]',
    summary: "this help, or a command's own (each command also takes --help)",
    run: async (argv, serve) => {
      const named = argv[0] === undefined || argv[0].startsWith('-') ? undefined : argv[0];
      const command = named === undefined ? undefined : findCommand(named);
      if (command && command.name !== 'help') return command.run(['--help'], serve);
      process.stdout.write(helpText());
      return 0;
    },
  },
];

/** The command named `name`, or a ConfigError naming the closest one and listing them all. */
export function findCommand(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return command;
  const near = closestName(
    name,
    COMMANDS.map((c) => c.name),
  );
  throw new UnknownCommand(name, near);
}

/** A first argument that is no command: the message names the nearest, and the list follows it. */
export class UnknownCommand extends Error {
  constructor(
    readonly typed: string,
    readonly near: string | undefined,
  ) {
    super(`unknown command "${typed}"${near ? ` (did you mean "${near}"?)` : ''}`);
  }
}

/** Each way to run it: the usage line, then what it does (and any note) indented under it. */
export function commandList(): string {
  const lines = ['  notification-emulator [flags]', '      start the emulator (the flags are below)'];
  for (const command of COMMANDS) {
    lines.push(`  notification-emulator ${command.usage}`, `      ${command.summary}`);
    if (command.note) lines.push(...command.note.split('\n').map((line) => `      ${line}`));
  }
  return `Usage:\n${lines.join('\n')}\n`;
}

export const helpText = () =>
  `notification-emulator: an emulator of the business-messaging notification and campaign API\n${commandList()}\n` +
  FLAGS_HELP;
