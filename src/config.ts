/**
 * Emulator options: one zod schema with defaults, and loadConfig(argv, env), a pure
 * function (flags win over env) that returns the options or a ConfigError naming every
 * bad flag or variable.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError } from './domain/errors.js';
import { unknownFlagHint } from './domain/did-you-mean.js';
import { AppConfigSchema, parseAppsEnv } from './catalog/apps.js';
import { LOG_LEVELS } from './platform/logger.js';
import { wholeNumberOf } from './platform/whole-number.js';
import { isHostEntry, isOriginEntry } from './platform/host-origin.js';

/** 65535 → "65535", 100000000 → "100,000,000": the bounds as a user reads them. */
const shownNumber = (n: number) => (n >= 10_000_000 ? n.toLocaleString('en-US') : String(n));

/**
 * A whole number from `min` to `max`: a number, or (from a flag or variable) its digits. Every
 * refusal says what the option accepts, in one phrase.
 */
const intFrom = (
  min: number,
  max: number,
  accepts = `a whole number from ${min} to ${shownNumber(max)}, written in digits`,
) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? (wholeNumberOf(value) ?? value) : value),
    z
      .number({ error: `expected ${accepts}` })
      .min(min, { error: `expected ${accepts}` })
      .max(max, { abort: true, error: `expected ${accepts}` }) // past 2^53 `int()` would refuse it a second time
      .int({ error: `expected ${accepts}` }),
  );

/** What `--upstream` accepts. */
const UPSTREAM_URL_ACCEPTS =
  'expected an http:// or https:// URL without query, fragment, user or password ' +
  '(the base URL, e.g. https://ID.api-eu.example.com/v3/business-messaging)';

/** A base URL calls are forwarded to: http(s), and nothing the request's own path and query would clash with. */
function isUpstreamUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const http = url.protocol === 'http:' || url.protocol === 'https:';
  return http && !url.search && !url.hash && !url.username && !url.password && !value.includes('?');
}

/** What a size option (`--body-limit`, `--upload-limit`) accepts. */
const SIZE_ACCEPTS = 'a size in bytes, or with a unit: 512kb, 50mb, 1gb (at most 2gb)';

const OptionFields = z.object({
  /** @default 4010 */
  port: intFrom(0, 65535).default(4010),
  /** @default "127.0.0.1" */
  host: z.string().min(1).default('127.0.0.1'),
  /** Folder with templates/*.json and apps.json. @default "./fixtures" */
  fixturesDir: z.string().min(1).default('./fixtures'),
  /** Folder with scenario files. @default "./scenarios" */
  scenariosDir: z.string().min(1).default('./scenarios'),
  /** Scenarios active from the start. @default [] */
  activeScenarios: z.array(z.string().min(1)).default([]),
  /** lowdb JSON file; in memory when absent. */
  dataFile: z.string().min(1).optional(),
  /** Seed of the random source (fault probabilities, generated data). Random when absent. */
  seed: intFrom(0, 2 ** 31 - 1).optional(),
  /** When set, everything under /__ needs `authorization: Bearer <token>`. */
  adminToken: z.string().min(1).optional(),
  /** Host names the control plane answers besides localhost, IP literals and one-label names; "*": any. @default [] */
  allowedHosts: z
    .array(
      z
        .string()
        .refine(
          isHostEntry,
          'expected a host name without scheme or port, ".domain" for it and every name under it, or *',
        ),
    )
    .default([]),
  /** Origins (scheme://host[:port]) that may write to the control plane and read its answers (CORS); "*": any. @default [] */
  allowedOrigins: z
    .array(z.string().refine(isOriginEntry, 'expected an origin such as https://tools.example:8443 (no path), or *'))
    .default([]),
  /** Retention caps: past each, the oldest records of that kind are dropped (and counted in /__health). */
  /** @default 1000000 (the documented retention default; memory: docs/performance.md#memory) */
  maxDeliveries: intFrom(1, 100_000_000).default(1_000_000),
  /** @default 100000 */
  maxNotifications: intFrom(1, 100_000_000).default(100_000),
  /** Request-journal entries kept, oldest dropped first. @default 10000 */
  maxJournal: intFrom(1, 10_000_000).default(10_000),
  /** Campaigns, with their recipients; one sending or scheduled is never dropped. @default 1000 */
  maxCampaigns: intFrom(1, 10_000_000).default(1_000),
  /** Recipients of every campaign together; past it the oldest campaigns go, whole. @default 1000000 */
  maxRecipients: intFrom(1, 100_000_000).default(1_000_000),
  /** Recorded analytics events (POST /api/analytics/events), oldest dropped first. @default 1000000 */
  maxAnalyticsEvents: intFrom(1, 100_000_000).default(1_000_000),
  /** Apps open mode remembers (first seen longest ago forgotten first; configured apps always stay). @default 10000 */
  maxApps: intFrom(1, 10_000_000).default(10_000),
  /** @default "info" */
  logLevel: z.enum(LOG_LEVELS).default('info'),
  /** Apps for strict auth; when empty and fixtures have no apps.json, auth is open. */
  apps: z.array(AppConfigSchema).default([]),
  /** JSON body limit in bytes (`--body-limit`). @default 52428800 (50 MB) */
  bodyLimitBytes: intFrom(1, 2 ** 31, SIZE_ACCEPTS).default(50 * 1024 * 1024),
  /** CSV upload limit in bytes (`--upload-limit`). @default 104857600 (100 MB) */
  uploadLimitBytes: intFrom(1, 2 ** 31, SIZE_ACCEPTS).default(100 * 1024 * 1024),
  /** Reload fixtures and scenarios when their files change. @default true */
  watch: z.boolean().default(true),
  /** A trace (GET /__export) to start from (startEmulator and the CLI; docs/reference.md#traces). */
  importFile: z.string().min(1).optional(),
  /** Where the CLI writes the trace when stopped by SIGTERM or SIGINT. */
  exportOnExit: z.string().min(1).optional(),
  /**
   * Proxy mode (docs/running.md#proxy-mode): the live service's base URL every API call is
   * forwarded to, e.g. `https://ID.api-eu.example.com/v3/business-messaging`.
   */
  upstream: z.string().refine(isUpstreamUrl, UPSTREAM_URL_ACCEPTS).optional(),
  /** Proxy mode with each app's own production host in this region (as `pull --region` builds it). */
  upstreamRegion: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'expected a region name: letters, digits and dashes')
    .optional(),
  /** How long a forwarded call may take, answer included, before it fails. @default 30000 */
  upstreamTimeoutMs: intFrom(1, 600_000).default(30_000),
});

export const EmulatorOptionsSchema = OptionFields.refine(
  (o) => o.upstream === undefined || o.upstreamRegion === undefined,
  { path: ['upstreamRegion'], error: 'expected either an upstream URL or an upstream region, not both' },
);

export type EmulatorOptions = z.infer<typeof EmulatorOptionsSchema>;

/** The retention caps of a store, taken from the options. */
export const retentionOf = (options: EmulatorOptions) => ({
  maxDeliveries: options.maxDeliveries,
  maxNotifications: options.maxNotifications,
  maxJournal: options.maxJournal,
  maxCampaigns: options.maxCampaigns,
  maxRecipients: options.maxRecipients,
  maxAnalyticsEvents: options.maxAnalyticsEvents,
});
export type EmulatorOptionsInput = z.input<typeof EmulatorOptionsSchema>;

/** The serve command's flags, for --help (commands.ts puts the commands above them). */
export const FLAGS_HELP = `Flags (environment variable in brackets; flags win):
  --port N             port to listen on, 0 picks a free one   [PORT]            (4010)
  --host H             address to bind                         [HOST]            (127.0.0.1)
  --fixtures DIR       templates/*.json and apps.json          [EMULATOR_FIXTURES] (./fixtures)
  --scenarios DIR      scenario files                          [EMULATOR_SCENARIOS_DIR] (./scenarios)
  --scenario NAME      activate a scenario (repeatable)        [EMULATOR_SCENARIOS=a,b]
  --data-file FILE     keep state in a JSON file               [EMULATOR_DATA_FILE]
  --seed N             seed for probabilities and fake data    [EMULATOR_SEED]
  --admin-token T      protect /__ with "Bearer T"             [EMULATOR_ADMIN_TOKEN]
  --allowed-hosts H,…  more host names /__ answers, * for any  [EMULATOR_ALLOWED_HOSTS]
  --allowed-origins O,…  origins that may write to /__ (CORS)  [EMULATOR_ALLOWED_ORIGINS]
  --max-deliveries N   retention cap, oldest dropped first     [EMULATOR_MAX_DELIVERIES] (1000000)
  --max-notifications N  retention cap                         [EMULATOR_MAX_NOTIFICATIONS] (100000)
  --max-journal N      request journal entries kept            [EMULATOR_MAX_JOURNAL] (10000)
  --max-campaigns N    retention cap (with their recipients)   [EMULATOR_MAX_CAMPAIGNS] (1000)
  --max-recipients N   cap on all campaigns' recipients        [EMULATOR_MAX_RECIPIENTS] (1000000)
  --max-analytics-events N  recorded analytics events kept     [EMULATOR_MAX_ANALYTICS_EVENTS] (1000000)
  --max-apps N         apps open mode remembers                [EMULATOR_MAX_APPS] (10000)
  --log-level L        silent|error|warn|info|debug (debug: one line per request)
                                                               [EMULATOR_LOG_LEVEL] (info)
  --body-limit SIZE    JSON body limit: bytes, or 512kb, 50mb  [EMULATOR_BODY_LIMIT] (50mb)
  --upload-limit SIZE  CSV upload body limit                   [EMULATOR_UPLOAD_LIMIT] (100mb)
  --import FILE        start from a trace (GET /__export)      [EMULATOR_IMPORT]
  --export-on-exit FILE  write a trace on SIGTERM/SIGINT       [EMULATOR_EXPORT_ON_EXIT]
  --upstream URL       proxy mode: forward API calls to URL    [EMULATOR_UPSTREAM]
                       (the live service; every call journaled and checked)
  --upstream-region R  proxy mode to each app's host in region [EMULATOR_UPSTREAM_REGION]
  --upstream-timeout-ms N  longest a forwarded call may take   [EMULATOR_UPSTREAM_TIMEOUT_MS] (30000)
  --no-watch           do not reload fixtures, apps.json and scenarios on change
  -v, --version        print the version
  -h, --help           show this help
  Apps for strict auth: fixtures/apps.json or EMULATOR_APPS="app1:key1[:region],app2:key2".
  Without --fixtures / --scenarios, ./fixtures and ./scenarios are used when they exist,
  else the bundled examples. A folder you name must exist.
`;

/** Whether the fixtures and scenarios folders were named (flag or env) or left to the defaults. */
export interface NamedFolders {
  fixtures: boolean;
  scenarios: boolean;
}

export type CliCommand =
  { kind: 'help' } | { kind: 'version' } | { kind: 'serve'; options: EmulatorOptions; named: NamedFolders };

/**
 * Where each option comes from: its flag and its environment variable (flags win). Named
 * once here, so the parser, the raw values and the problem messages cannot disagree.
 */
const SOURCES = {
  port: { flag: 'port', env: 'PORT' },
  host: { flag: 'host', env: 'HOST' },
  fixturesDir: { flag: 'fixtures', env: 'EMULATOR_FIXTURES' },
  scenariosDir: { flag: 'scenarios', env: 'EMULATOR_SCENARIOS_DIR' },
  activeScenarios: { flag: 'scenario', env: 'EMULATOR_SCENARIOS' },
  dataFile: { flag: 'data-file', env: 'EMULATOR_DATA_FILE' },
  seed: { flag: 'seed', env: 'EMULATOR_SEED' },
  adminToken: { flag: 'admin-token', env: 'EMULATOR_ADMIN_TOKEN' },
  allowedHosts: { flag: 'allowed-hosts', env: 'EMULATOR_ALLOWED_HOSTS' },
  allowedOrigins: { flag: 'allowed-origins', env: 'EMULATOR_ALLOWED_ORIGINS' },
  maxDeliveries: { flag: 'max-deliveries', env: 'EMULATOR_MAX_DELIVERIES' },
  maxNotifications: { flag: 'max-notifications', env: 'EMULATOR_MAX_NOTIFICATIONS' },
  maxJournal: { flag: 'max-journal', env: 'EMULATOR_MAX_JOURNAL' },
  maxCampaigns: { flag: 'max-campaigns', env: 'EMULATOR_MAX_CAMPAIGNS' },
  maxRecipients: { flag: 'max-recipients', env: 'EMULATOR_MAX_RECIPIENTS' },
  maxAnalyticsEvents: { flag: 'max-analytics-events', env: 'EMULATOR_MAX_ANALYTICS_EVENTS' },
  maxApps: { flag: 'max-apps', env: 'EMULATOR_MAX_APPS' },
  logLevel: { flag: 'log-level', env: 'EMULATOR_LOG_LEVEL' },
  bodyLimitBytes: { flag: 'body-limit', env: 'EMULATOR_BODY_LIMIT' },
  uploadLimitBytes: { flag: 'upload-limit', env: 'EMULATOR_UPLOAD_LIMIT' },
  importFile: { flag: 'import', env: 'EMULATOR_IMPORT' },
  exportOnExit: { flag: 'export-on-exit', env: 'EMULATOR_EXPORT_ON_EXIT' },
  upstream: { flag: 'upstream', env: 'EMULATOR_UPSTREAM' },
  upstreamRegion: { flag: 'upstream-region', env: 'EMULATOR_UPSTREAM_REGION' },
  upstreamTimeoutMs: { flag: 'upstream-timeout-ms', env: 'EMULATOR_UPSTREAM_TIMEOUT_MS' },
} as const;

type SourcedOption = keyof typeof SOURCES;
type SourcedFlag = (typeof SOURCES)[SourcedOption]['flag'];

const FLAGS = {
  ...(Object.fromEntries(Object.values(SOURCES).map(({ flag }) => [flag, { type: 'string' }])) as Record<
    SourcedFlag,
    { type: 'string' }
  >),
  scenario: { type: 'string', multiple: true },
  'no-watch': { type: 'boolean' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1024,
  k: 1024,
  mb: 1024 ** 2,
  m: 1024 ** 2,
  gb: 1024 ** 3,
  g: 1024 ** 3,
};

/**
 * `"52428800"`, `"512kb"`, `"50mb"`, `"1gb"` (1024-based, any case) → bytes; anything else is
 * left as it is for zod to refuse.
 */
export function parseSize(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  return match && unit !== undefined ? Math.round(Number(match[1]) * unit) : value;
}

/**
 * `--port -1` → `--port=-1`: parseArgs takes a value starting with "-" for a missing one
 * ("argument is ambiguous"); a negative number after a flag that takes a value is that value,
 * refused then with what the flag accepts.
 */
function withNegativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const next = argv[i + 1];
    const takesValue = flag.startsWith('--') && FLAGS[flag.slice(2) as keyof typeof FLAGS]?.type === 'string';
    if (takesValue && next !== undefined && /^-\d/.test(next)) {
      out.push(`${flag}=${next}`);
      i++;
    } else out.push(flag);
  }
  return out;
}

const splitList = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** argv (without node and script) + env → what to do. Throws ConfigError for bad input. */
export function loadConfig(argv: string[], rawEnv: Record<string, string | undefined>): CliCommand {
  // An empty variable (`PORT=`) counts as unset, so it cannot turn into port 0 by coercion.
  const env = Object.fromEntries(Object.entries(rawEnv).filter(([, v]) => v !== '')) as Record<
    string,
    string | undefined
  >;
  let values: ReturnType<typeof parseArgs<{ options: typeof FLAGS; strict: true; allowPositionals: false }>>['values'];
  try {
    ({ values } = parseArgs({ args: withNegativeValues(argv), options: FLAGS, strict: true, allowPositionals: false }));
  } catch (error) {
    // parseArgs's messages may span lines (a value starting with "-") and end with a period.
    const message = (error as Error).message.replace(/\s*\n\s*/g, ' ').replace(/\.$/, '');
    const hint = unknownFlagHint(argv, Object.keys(FLAGS));
    throw new ConfigError([`${message}.${hint} Run with --help for the list of flags.`]);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const problems: string[] = [];
  for (const [flag, value] of Object.entries(values)) {
    if (value === '') problems.push(`--${flag}: needs a value (got an empty string)`);
  }
  let apps: unknown[] = [];
  try {
    apps = env.EMULATOR_APPS ? parseAppsEnv(env.EMULATOR_APPS) : [];
  } catch (error) {
    problems.push((error as Error).message);
  }
  const given = (option: SourcedOption): string | undefined =>
    (values[SOURCES[option].flag] as string | undefined) ?? env[SOURCES[option].env];
  const raw: Record<string, unknown> = {
    ...Object.fromEntries((Object.keys(SOURCES) as SourcedOption[]).map((option) => [option, given(option)])),
    activeScenarios: values.scenario ?? splitList(env.EMULATOR_SCENARIOS),
    bodyLimitBytes: parseSize(given('bodyLimitBytes')),
    uploadLimitBytes: parseSize(given('uploadLimitBytes')),
    allowedHosts: splitList(given('allowedHosts')),
    allowedOrigins: splitList(given('allowedOrigins')),
    apps,
    watch: values['no-watch'] ? false : undefined,
  };
  const parsed = EmulatorOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      const source = key in SOURCES ? SOURCES[key as SourcedOption] : undefined;
      // Name where the bad value came from: the flag, or the env variable when no flag was given.
      const where = !source ? key : values[source.flag] === undefined ? source.env : `--${source.flag}`;
      // The value as given (a size before its unit was applied).
      const got = source ? given(key as SourcedOption) : raw[key];
      problems.push(`${where}: ${issue.message} (got ${JSON.stringify(got)})`);
    }
  }
  if (problems.length || !parsed.success) throw new ConfigError(problems);
  return {
    kind: 'serve',
    options: parsed.data,
    named: { fixtures: raw.fixturesDir !== undefined, scenarios: raw.scenariosDir !== undefined },
  };
}

/**
 * The package's folder: the nearest one above this module with a package.json (the bundler
 * may move this code into dist/chunks/).
 */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** The example fixtures and scenarios shipped in the package (beside dist/ and src/). */
const BUNDLED_FOLDERS = {
  fixtures: join(packageRoot(), 'fixtures'),
  scenarios: join(packageRoot(), 'scenarios'),
};

type Exists = (path: string) => boolean;

/** A folder counts only when it looks like emulator fixtures: many projects have an unrelated fixtures/ folder. */
const holdsFixtures = (dir: string, exists: Exists) => exists(join(dir, 'templates')) || exists(join(dir, 'apps.json'));

/** The fixtures folder when none is named: ./fixtures if it holds emulator fixtures, else the bundled examples. */
export function defaultFixturesDir(exists: Exists = existsSync, bundled: string = BUNDLED_FOLDERS.fixtures): string {
  return holdsFixtures('./fixtures', exists) || !exists(bundled) ? './fixtures' : bundled;
}

/** Where the fixtures and scenarios come from, for the startup output. */
export interface FolderChoice {
  fixtures: 'named' | 'default' | 'bundled';
  scenarios: 'named' | 'default' | 'bundled';
}

/** The options with the folders they will use, and where each folder came from. */
type FolderResolution = { options: EmulatorOptions; source: FolderChoice };

/** How a folder option is named where it was given: on the command line, or to createApp()/startEmulator(). */
export const FOLDER_LABELS = {
  cli: { fixtures: '--fixtures / EMULATOR_FIXTURES', scenarios: '--scenarios / EMULATOR_SCENARIOS_DIR' },
  library: { fixtures: 'options.fixturesDir', scenarios: 'options.scenariosDir' },
} as const;

/**
 * A named folder that does not exist, as a ConfigError naming each (by `labels`): the CLI and
 * createApp() refuse it alike, rather than serving 404s from a mistyped path.
 */
export function requireNamedFolders(
  options: Pick<EmulatorOptions, 'fixturesDir' | 'scenariosDir'>,
  named: NamedFolders,
  labels: { fixtures: string; scenarios: string } = FOLDER_LABELS.cli,
  exists: Exists = existsSync,
): void {
  const problems: string[] = [];
  if (named.fixtures && !exists(options.fixturesDir))
    problems.push(
      `${labels.fixtures}: the folder "${options.fixturesDir}" does not exist ` +
        '(it should hold templates/*.json and optionally apps.json)',
    );
  if (named.scenarios && !exists(options.scenariosDir))
    problems.push(
      `${labels.scenarios}: the folder "${options.scenariosDir}" does not exist ` +
        '(it should hold scenario *.json files)',
    );
  if (problems.length) throw new ConfigError(problems);
}

/**
 * Checks the folders of a serve command. A folder the user named (flag or env) must exist
 * (ConfigError otherwise). A default folder missing from the working directory (an
 * installed package run from a project without ./fixtures) falls back to the bundled examples.
 */
export function resolveFolders(...args: Parameters<typeof withBundledFolders>): FolderResolution {
  const [options, named, exists = existsSync] = args;
  requireNamedFolders(options, named, FOLDER_LABELS.cli, exists);
  return withBundledFolders(...args);
}

/**
 * The bundled examples in place of a folder left to its default that holds none of its own:
 * ./fixtures without templates/ or apps.json, ./scenarios missing. The CLI and createApp()
 * share this rule.
 */
export function withBundledFolders(
  options: EmulatorOptions,
  named: NamedFolders,
  exists: Exists = existsSync,
  bundled: { fixtures: string; scenarios: string } = BUNDLED_FOLDERS,
): FolderResolution {
  const useBundledFixtures = !named.fixtures && !holdsFixtures(options.fixturesDir, exists) && exists(bundled.fixtures);
  const useBundledScenarios = !named.scenarios && !exists(options.scenariosDir) && exists(bundled.scenarios);
  return {
    options: {
      ...options,
      fixturesDir: useBundledFixtures ? bundled.fixtures : options.fixturesDir,
      scenariosDir: useBundledScenarios ? bundled.scenarios : options.scenariosDir,
    },
    source: {
      fixtures: named.fixtures ? 'named' : useBundledFixtures ? 'bundled' : 'default',
      scenarios: named.scenarios ? 'named' : useBundledScenarios ? 'bundled' : 'default',
    },
  };
}
