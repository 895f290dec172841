/**
 * The built CLI (dist/cli.js) as a user runs it, for the tests of test/server: an environment
 * without the developer's EMULATOR_* settings, and a start that resolves once it listens.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const CLI = join(process.cwd(), 'dist', 'cli.js');

/** The test's environment without EMULATOR_*, PORT and HOST: the CLI sees only what a test gives it. */
export const cleanEnv = () => {
  const env = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith('EMULATOR_') || name === 'PORT' || name === 'HOST') delete env[name];
  return env;
};

export interface StartedCli {
  /** The address to call (the local one when it listens on every interface). */
  url: string;
  /** What it printed on stdout by the time it was ready. */
  stdout: string;
  stderr: () => string;
  /** SIGTERM; resolves with the exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Starts the CLI with `args` (a free port and --no-watch unless `args` name a port) and
 * resolves once the startup summary (its last line, "body limits") is on stderr.
 */
export async function startCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<StartedCli> {
  const port = args.includes('--port') ? [] : ['--port', '0'];
  const child = spawn(process.execPath, [CLI, ...args, ...port, '--no-watch'], {
    env: options.env ?? cleanEnv(),
    cwd: options.cwd,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (stdout.includes('\n') && (stderr.includes('body limits:') || args.includes('silent'))) resolve();
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stdout}${stderr}`)));
  });
  const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
  const local = /from this machine: (http:\/\/[^)\s]+)/.exec(stdout)?.[1];
  return {
    url: local ?? url,
    stdout,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
