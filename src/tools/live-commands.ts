/**
 * `notification-emulator pull` (fixtures from a live account) and `check-fixtures` (fixtures
 * against a live account), and the flags, key handling and client `verify` shares with them.
 * The API key comes from EMULATOR_PULL_API_KEY or --api-key-file, never from a flag, and every
 * line these commands print passes through a filter that masks it. Exit codes: 0 done / no
 * breaking drift, 1 failure or breaking drift, 2 bad usage.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '../domain/errors.js';
import { compareSnapshots, type Difference } from './drift.js';
import { fixtureFilesOf, snapshotFromFixtures, snapshotFromLive, CHANNELS_FILE, TEMPLATES_DIR } from './fixture-set.js';
import { createLiveClient, defaultBaseUrl, LiveReadError } from './live/client.js';
import { readLiveAccount } from './live/read-account.js';
import { writeFixtureSet } from './write-fixtures.js';
import { wholeNumberOf } from '../platform/whole-number.js';
import { withFlagHint } from '../domain/did-you-mean.js';

export const API_KEY_ENV = 'EMULATOR_PULL_API_KEY';

export const COMMON_FLAGS_HELP = `  --app-id A          the live app id (sent as the appid header)
  --region R          the app's region, for the default base URL
                      https://{A}.api-{R}.<production host>/v3/business-messaging
  --base-url URL      read from URL instead (e.g. http://localhost:4010 for an emulator)
  --api-key-file F    read the API key from file F (default: the ${API_KEY_ENV} variable)
  --timeout-ms N      give up on a request after N ms (default 10000)
  --max-retries N     retries after a 429, waiting as Retry-After says (default 3, at most 60 s each)
  -h, --help          show this help
The API key is never accepted as a flag (it would land in shell history) and never printed.`;

export const PULL_HELP = `Usage: notification-emulator pull --app-id A (--region R | --base-url URL) [--out DIR]

Reads the live account's templates, their per-channel content and its channels, and writes
fixture files the emulator loads: DIR/templates/<key>.json (one per template) and
DIR/${CHANNELS_FILE}. The same account always gives the same bytes. Nothing is written
unless every read succeeded; DIR/${TEMPLATES_DIR} is then replaced as a whole.
  --out DIR           fixtures folder to write (default ./fixtures)
${COMMON_FLAGS_HELP}
`;

export const CHECK_HELP = `Usage: notification-emulator check-fixtures --app-id A (--region R | --base-url URL)
         [--fixtures DIR] [--json]

Compares the fixtures with the live account without writing anything, and prints each
difference. Exit 1 when the fixtures would let a send pass that the live account refuses
(template missing or not approved live, a variable the live account requires, a type change,
a variable the live account no longer has), 0 otherwise.
  --fixtures DIR      fixtures folder to check (default ./fixtures)
  --json              print the result as JSON (for CI annotations)
${COMMON_FLAGS_HELP}
`;

export interface LiveCommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
}

export const defaultIo = (): LiveCommandIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });

class UsageError extends Error {}

export interface LiveOptions {
  appId: string;
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  values: Record<string, string | boolean | undefined>;
}

const COMMON_FLAGS = {
  'app-id': { type: 'string' },
  region: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-file': { type: 'string' },
  'timeout-ms': { type: 'string' },
  'max-retries': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Flags that would carry the key itself: refused without echoing what follows them. */
const KEY_FLAG = /^--?(api-?key|apikey|key)(=|$)/i;

function readInteger(flag: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = wholeNumberOf(text);
  if (value === undefined || value < min || value > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${text}")`);
  }
  return value;
}

function readOptions(
  argv: string[],
  extra: Record<string, { type: 'string' | 'boolean' }>,
  env: LiveCommandIo['env'],
): LiveOptions | 'help' {
  const keyFlag = argv.find((arg) => KEY_FLAG.test(arg));
  if (keyFlag) {
    throw new UsageError(
      `${keyFlag.split('=')[0]} is not accepted: a key on the command line lands in shell history; ` +
        `set ${API_KEY_ENV} or use --api-key-file`,
    );
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { ...COMMON_FLAGS, ...extra },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    const flags = [...Object.keys(COMMON_FLAGS), ...Object.keys(extra)];
    throw new UsageError(withFlagHint((error as Error).message, argv, flags));
  }
  if (values.help) return 'help';
  const str = (name: string) => {
    const v = values[name];
    if (v === '') throw new UsageError(`--${name} needs a value`);
    return typeof v === 'string' ? v : undefined;
  };
  const appId = str('app-id');
  if (!appId) throw new UsageError('missing --app-id');
  const region = str('region');
  let baseUrl = str('base-url');
  if (baseUrl === undefined) {
    if (!region) throw new UsageError('missing --region (or --base-url)');
    if (!/^[A-Za-z0-9-]+$/.test(appId)) {
      throw new UsageError(`--app-id "${appId}" cannot be part of a host name; use --base-url`);
    }
    if (!/^[A-Za-z0-9-]+$/.test(region)) throw new UsageError(`--region "${region}" is not a region name`);
    baseUrl = defaultBaseUrl(appId, region);
  } else {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new UsageError(`--base-url "${baseUrl}" is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`--base-url "${baseUrl}" must start with http:// or https://`);
    }
    if (url.search || url.hash) throw new UsageError(`--base-url "${baseUrl}" must not have a query or fragment`);
    if (url.username || url.password) {
      throw new UsageError('--base-url must not carry a user name or password (the key goes in EMULATOR_PULL_API_KEY)');
    }
  }
  const keyFile = str('api-key-file');
  let apiKey: string | undefined;
  if (keyFile !== undefined) {
    try {
      apiKey = readFileSync(keyFile, 'utf8').trim();
    } catch (error) {
      throw new UsageError(
        `cannot read --api-key-file ${keyFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    if (!apiKey) throw new UsageError(`--api-key-file ${keyFile} is empty`);
  } else {
    apiKey = env[API_KEY_ENV]?.trim();
    if (!apiKey) throw new UsageError(`no API key: set ${API_KEY_ENV} or use --api-key-file FILE`);
  }
  return {
    appId,
    baseUrl,
    apiKey,
    timeoutMs: readInteger('--timeout-ms', str('timeout-ms'), 10_000, 1, 600_000),
    maxRetries: readInteger('--max-retries', str('max-retries'), 3, 0, 10),
    values,
  };
}

/**
 * A key shorter than this is masked only where it stands alone: masking every "k" of a
 * one-letter test key garbled words ("Un***nown"). A longer key is masked wherever it appears.
 */
const SHORT_KEY_LENGTH = 8;

/** `text` with every occurrence of `key` replaced by `***`. */
function maskKey(text: string, key: string | undefined): string {
  if (!key) return text;
  if (key.length >= SHORT_KEY_LENGTH) return text.split(key).join('***');
  const literal = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(?<![\\w-])${literal}(?![\\w-])`, 'g'), '***');
}

/** Whether `text` holds `key`, as `maskKey` finds it. */
const containsKey = (text: string, key: string) => maskKey(text, key) !== text;

/** An io whose every write has the key masked. */
function masked(io: LiveCommandIo, secret: () => string | undefined): LiveCommandIo {
  const mask = (text: string) => maskKey(text, secret());
  return {
    env: io.env,
    stdout: { write: (text: string) => io.stdout.write(mask(text)) },
    stderr: { write: (text: string) => io.stderr.write(mask(text)) },
  };
}

type Body = (options: LiveOptions, io: LiveCommandIo) => Promise<number>;

export async function runLiveCommand(
  name: string,
  help: string,
  extra: Record<string, { type: 'string' | 'boolean' }>,
  argv: string[],
  rawIo: LiveCommandIo,
  body: Body,
): Promise<number> {
  // Masked from the start: a usage error may echo an argument.
  let key: string | undefined = rawIo.env[API_KEY_ENV]?.trim() || undefined;
  const io = masked(rawIo, () => key);
  let options: LiveOptions | 'help';
  try {
    options = readOptions(argv, extra, rawIo.env);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`notification-emulator ${name}: ${error.message}\n\n${help}`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    io.stdout.write(help);
    return 0;
  }
  key = options.apiKey;
  try {
    return await body(options, io);
  } catch (error) {
    if (error instanceof LiveReadError) {
      io.stderr.write(`notification-emulator ${name}: failed: ${error.message}\n`);
      return 1;
    }
    if (error instanceof ConfigError) {
      io.stderr.write(
        `notification-emulator ${name}: the fixtures do not load:\n` + error.problems.map((p) => `  - ${p}\n`).join(''),
      );
      return 1;
    }
    const message = (error as Error).message ?? String(error);
    io.stderr.write(`notification-emulator ${name}: failed: ${message.replace(/\s+/g, ' ')}\n`);
    return 1;
  }
}

export function clientFor(options: LiveOptions, io: LiveCommandIo, name: string) {
  return createLiveClient({
    baseUrl: options.baseUrl,
    appId: options.appId,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    maxRetryWaitMs: 60_000,
    onRetry: (what, waitMs, attempt) =>
      io.stderr.write(`${name}: ${what} was rate limited (429); retry ${attempt} in ${Math.ceil(waitMs / 1000)} s\n`),
  });
}

export async function readLive(options: LiveOptions, io: LiveCommandIo, name: string) {
  const account = await readLiveAccount(clientFor(options, io, name));
  if (account.rows === null) {
    io.stderr.write(
      `${name}: note: the server has no /api/template-channels endpoint (404); ` +
        'content taken from the template objects\n',
    );
  }
  const { snapshot, warnings } = snapshotFromLive(account);
  for (const warning of warnings) io.stderr.write(`${name}: warning: ${warning}\n`);
  return { account, snapshot };
}

export function runPull(argv: string[], io: LiveCommandIo = defaultIo()): Promise<number> {
  return runLiveCommand('pull', PULL_HELP, { out: { type: 'string' } }, argv, io, async (options, out) => {
    const dir = typeof options.values.out === 'string' && options.values.out ? options.values.out : './fixtures';
    const { account, snapshot } = await readLive(options, out, 'pull');
    const files = fixtureFilesOf(snapshot);
    for (const [path, text] of files) {
      if (containsKey(text, options.apiKey)) {
        out.stderr.write(
          `notification-emulator pull: failed: the account's data for ${path} contains the API key; nothing written\n`,
        );
        return 1;
      }
    }
    let result;
    try {
      result = writeFixtureSet(dir, files, (tmp) => {
        // The files must load as they are, and say what the account says.
        let loaded;
        try {
          loaded = snapshotFromFixtures(tmp, options.appId);
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          throw new ConfigError(error.problems.map((p) => p.split(`${tmp}${sep}`).join('')));
        }
        for (const d of compareSnapshots(loaded, snapshot)) {
          out.stderr.write(`pull: warning: the fixtures cannot hold this exactly: ${d.message}\n`);
        }
      });
    } catch (error) {
      if (error instanceof ConfigError) {
        out.stderr.write(
          `notification-emulator pull: failed: the pulled fixtures would not load (${error.problems[0]}` +
            `${error.problems.length > 1 ? `; and ${error.problems.length - 1} more` : ''}); nothing written\n`,
        );
        return 1;
      }
      out.stderr.write(
        `notification-emulator pull: failed: cannot write ${dir}: ${(error as Error).message.replace(/\s+/g, ' ')}\n`,
      );
      return 1;
    }
    const counts = `${account.templates.length} template(s), ${account.channels.length} channel(s)`;
    if (!result.changed) {
      out.stdout.write(`pull: ${dir} already matches the live account (${counts}); nothing changed\n`);
      return 0;
    }
    const parts = [
      result.added.length ? `${result.added.length} added` : '',
      result.updated.length ? `${result.updated.length} changed` : '',
      result.removed.length ? `${result.removed.length} removed` : '',
    ].filter(Boolean);
    out.stdout.write(`pull: wrote ${counts} to ${dir} (files: ${parts.join(', ')})\n`);
    for (const path of result.added) out.stdout.write(`  + ${path}\n`);
    for (const path of result.updated) out.stdout.write(`  ~ ${path}\n`);
    for (const path of result.removed) out.stdout.write(`  - ${path}\n`);
    return 0;
  });
}

export function runCheckFixtures(argv: string[], io: LiveCommandIo = defaultIo()): Promise<number> {
  return runLiveCommand(
    'check-fixtures',
    CHECK_HELP,
    { fixtures: { type: 'string' }, json: { type: 'boolean' } },
    argv,
    io,
    async (options, out) => {
      const dir =
        typeof options.values.fixtures === 'string' && options.values.fixtures ? options.values.fixtures : './fixtures';
      if (!existsSync(join(dir, TEMPLATES_DIR))) {
        out.stderr.write(
          `notification-emulator check-fixtures: no ${TEMPLATES_DIR} folder in ${dir} (check --fixtures)\n`,
        );
        return 2;
      }
      // The fixtures first: a broken folder is reported without a network round trip.
      const fixtures = snapshotFromFixtures(dir, options.appId);
      const { snapshot } = await readLive(options, out, 'check-fixtures');
      const differences = compareSnapshots(fixtures, snapshot);
      const breaking = differences.filter((d) => d.breaking).length;
      if (options.values.json) {
        out.stdout.write(
          JSON.stringify({ ok: breaking === 0, fixtures: dir, appId: options.appId, breaking, differences }, null, 2) +
            '\n',
        );
      } else {
        out.stdout.write(report(dir, differences, breaking, fixtures.templates.length));
      }
      return breaking > 0 ? 1 : 0;
    },
  );
}

function report(dir: string, differences: Difference[], breaking: number, templateCount: number): string {
  if (differences.length === 0) {
    return `check-fixtures: ${dir} matches the live account (${templateCount} template(s))\n`;
  }
  const head =
    `check-fixtures: ${differences.length} difference(s) between ${dir} and the live account` +
    (breaking
      ? `; ${breaking} would let a send pass here that the live account refuses:\n`
      : '; none would let a send pass here that the live account refuses:\n');
  const lines = differences.map((d) => `  ${d.breaking ? 'BREAKING' : 'differs '}  ${d.message}\n`);
  return (
    head + lines.join('') + (breaking ? `Run "notification-emulator pull" to bring the fixtures up to date.\n` : '')
  );
}
