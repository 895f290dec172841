#!/usr/bin/env node
/**
 * The command line: flags + env → options → startEmulator. Prints one startup line with
 * the bound URL, stops cleanly on SIGTERM/SIGINT. The only file that exits the process.
 */
import { ConfigError } from './domain/errors.js';
import { HELP, loadConfig } from './config.js';
import { startEmulator } from './server.js';

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'generate-csv') {
    // Loaded on demand: faker is heavy and the server never needs it.
    const { runGenerateCsv } = await import('./tools/generate-csv.js');
    return runGenerateCsv(argv.slice(1));
  }
  if (argv[0] === 'pull' || argv[0] === 'check-fixtures') {
    // Loaded on demand, like generate-csv: the server's start never pays for them.
    const { runPull, runCheckFixtures } = await import('./tools/live-commands.js');
    return argv[0] === 'pull' ? runPull(argv.slice(1)) : runCheckFixtures(argv.slice(1));
  }
  const command = loadConfig(argv, process.env);
  if (command.kind === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  const running = await startEmulator(command.options);
  const { emulator } = running.app;
  const stop = (signal: string) => {
    emulator.logger.info(`${signal} received, stopping`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  // Handlers first: a supervisor may send SIGTERM as soon as it reads the startup line.
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.stdout.write(`notification-emulator listening on ${running.url}\n`);
  emulator.logger.info(
    `auth ${emulator.apps.mode}, ${emulator.templates.count()} template(s) from ${command.options.fixturesDir}`,
  );
  if (emulator.templates.count() === 0) {
    // A mistyped --fixtures path is otherwise only visible as 404s on every send.
    emulator.logger.warn(
      `no templates found in ${command.options.fixturesDir}/templates: every send will answer 404 until one is added`,
    );
  }
  return -1; // keep running
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(
        `notification-emulator: cannot start:\n${error.problems.map((p) => `  - ${p}`).join('\n')}\n`,
      );
      process.exit(2);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      process.stderr.write(
        `notification-emulator: the port is already in use (${(error as Error).message}); pick another with --port or PORT.\n`,
      );
      process.exit(1);
    }
    process.stderr.write(`notification-emulator: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
