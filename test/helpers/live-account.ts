/**
 * Test helpers for `pull` and `check-fixtures`: a second emulator playing the live account
 * (strict auth, every app with the same secret key), an API client for it, the commands run
 * in-process with their output captured, and a recursive byte snapshot of a folder.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { runCheckFixtures, runPull, API_KEY_ENV } from '../../src/tools/live-commands.js';

/** The live key: must never show up in any output or file. */
export const LIVE_KEY = 'sk_live_5f1b9c3e7a2d4e6f8091-never-print';

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

export interface LiveAccount {
  url: string;
  emulator: RunningEmulator;
  api(appId: string): LiveApi;
  close(): Promise<void>;
}

export interface LiveApi {
  /** The answer, its body typed by the caller (`unknown` unless told). */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Like call, but fails the test unless the answer is 2xx. */
  ok<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export async function startLiveAccount(appIds: string[]): Promise<LiveAccount> {
  const empty = tempDir('live-account-');
  const emulator = await startEmulator({
    port: 0,
    fixturesDir: empty,
    scenariosDir: empty,
    logLevel: 'silent',
    watch: false,
    seed: 7,
    apps: appIds.map((appId) => ({ appId, apiKey: LIVE_KEY, region: 'eu' })),
  });
  const api = (appId: string): LiveApi => {
    const call = async <T>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`${emulator.url}${path}`, {
        method,
        headers: { appid: appId, apikey: LIVE_KEY, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
    };
    return {
      call,
      async ok<T>(method: string, path: string, body?: unknown) {
        const res = await call<T>(method, path, body);
        expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
        return res.body;
      },
    };
  };
  return {
    url: emulator.url,
    emulator,
    api,
    close: async () => {
      await emulator.close();
      rmSync(empty, { recursive: true, force: true });
    },
  };
}

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Every line any command printed, for the key scan. One list per worker, not per file (the
 * 'src' project shares modules between files): a file scans from `printed.length` at its start.
 */
export const printed: string[] = [];

async function run(
  command: typeof runPull,
  argv: string[],
  env: Record<string, string | undefined> = { [API_KEY_ENV]: LIVE_KEY },
): Promise<CommandRun> {
  let stdout = '';
  let stderr = '';
  const code = await command(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env,
  });
  printed.push(stdout, stderr);
  return { code, stdout, stderr };
}

export const pull = (argv: string[], env?: Record<string, string | undefined>) => run(runPull, argv, env);
export const checkFixtures = (argv: string[], env?: Record<string, string | undefined>) =>
  run(runCheckFixtures, argv, env);

/** Relative path → bytes (as text) and mtime of every file under `dir`, hidden ones included. */
export function folderSnapshot(dir: string): Record<string, { text: string; mtimeMs: number }> {
  const out: Record<string, { text: string; mtimeMs: number }> = {};
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    const file = join(dir, rel);
    const stat = statSync(file);
    if (stat.isFile()) out[rel.split('\\').join('/')] = { text: readFileSync(file, 'utf8'), mtimeMs: stat.mtimeMs };
  }
  return out;
}

/** Every file's text under the given folders, for the key scan. */
export function allFileTexts(dirs: string[]): string[] {
  return dirs.flatMap((dir) => Object.values(folderSnapshot(dir)).map((f) => f.text));
}
