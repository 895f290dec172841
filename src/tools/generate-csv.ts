/**
 * `notification-emulator generate-csv`: writes a valid recipients CSV of fake data for one
 * fixture template, to stdout or --out, with progress on stderr. Returns the exit code.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { loadTemplates } from '../catalog/load-fixtures.js';
import { defaultFixturesDir } from '../config.js';
import { ConfigError } from '../domain/errors.js';
import { MAX_CSV_ROWS } from '../domain/csv.js';
import type { Template } from '../schemas/records.js';
import { CSV_CHUNK_ROWS, recipientsCsvChunks } from '../platform/fake-data.js';
import { createRandom } from '../platform/random.js';
import { wholeNumberOf } from '../platform/whole-number.js';
import { withFlagHint } from '../domain/did-you-mean.js';

export const GENERATE_CSV_HELP =
  'Usage: notification-emulator generate-csv --template KEY --rows N ' +
  `[--seed S] [--fixtures DIR] [--out FILE]

Writes a recipients CSV (user_id + the template's variable columns) filled with fake data.
  --template KEY   template key (or id) from DIR/templates
  --rows N         number of data rows (user ids user-000001 …)
  --seed S         integer seed: the same seed gives the same file (default: random, printed)
  --fixtures DIR   fixtures directory (default ./fixtures, else the bundled examples)
  --out FILE       write to FILE instead of stdout
`;

export interface GenerateCsvIo {
  stdout: Writable;
  stderr: { write(text: string): unknown };
}

interface GenerateCsvOptions {
  templateKey: string;
  rows: number;
  seed: number;
  fixturesDir: string;
  out: string | undefined;
}

/** A bad or missing flag: the message is followed by the usage text. */
class UsageError extends Error {}
/** Flags fine, but the template cannot be found. */
class LookupError extends Error {}

export async function runGenerateCsv(
  argv: string[],
  io: GenerateCsvIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  let options: GenerateCsvOptions | 'help';
  let template: Template;
  try {
    options = readOptions(argv);
    if (options === 'help') {
      io.stdout.write(GENERATE_CSV_HELP);
      return 0;
    }
    template = findTemplate(options.fixturesDir, options.templateKey);
  } catch (error) {
    if (error instanceof UsageError || error instanceof LookupError || error instanceof ConfigError) {
      io.stderr.write(
        `notification-emulator generate-csv: ${error.message}\n${error instanceof UsageError ? GENERATE_CSV_HELP : ''}`,
      );
      return 2;
    }
    throw error;
  }
  if (options.rows > MAX_CSV_ROWS) {
    io.stderr.write(`generate-csv: note: ${options.rows} rows is more than the ${MAX_CSV_ROWS} an upload accepts\n`);
  }
  const target = options.out ?? 'stdout';
  try {
    await writeCsv(template, options, io);
  } catch (error) {
    // A reader that stops early (`| head`) is not a failure.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE' && options.out === undefined) return 0;
    io.stderr.write(`notification-emulator generate-csv: cannot write ${target}: ${(error as Error).message}\n`);
    return 1;
  }
  io.stderr.write(
    `generate-csv: wrote ${options.rows} rows for template "${template.key}" (seed ${options.seed}) to ${target}\n`,
  );
  return 0;
}

const FLAGS = {
  template: { type: 'string' },
  rows: { type: 'string' },
  seed: { type: 'string' },
  fixtures: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function readOptions(argv: string[]): GenerateCsvOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: FLAGS,
    }));
  } catch (error) {
    throw new UsageError(withFlagHint((error as Error).message, argv, Object.keys(FLAGS)));
  }
  if (values.help) return 'help';
  const missing = (['template', 'rows'] as const).filter((name) => values[name] === undefined || values[name] === '');
  if (missing.length) throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(' and ')}`);
  return {
    templateKey: values.template as string,
    rows: readInteger('--rows', values.rows as string),
    seed: values.seed === undefined ? createRandom().seed : readInteger('--seed', values.seed),
    fixturesDir: values.fixtures ?? defaultFixturesDir(),
    out: values.out,
  };
}

function readInteger(flag: string, text: string): number {
  const value = wholeNumberOf(text);
  if (value === undefined || !Number.isSafeInteger(value)) {
    throw new UsageError(`${flag} must be a whole number >= 0 (got "${text}")`);
  }
  return value;
}

function findTemplate(fixturesDir: string, key: string): Template {
  if (!existsSync(fixturesDir)) throw new LookupError(`--fixtures: the folder "${fixturesDir}" does not exist`);
  const templates = loadTemplates(fixturesDir, '1970-01-01T00:00:00.000Z');
  const found =
    templates.find((t) => t.key === key && t.appId === null) ?? templates.find((t) => t.key === key || t.id === key);
  if (found) return found;
  const keys = [...new Set(templates.map((t) => t.key))].sort();
  throw new LookupError(
    `unknown template "${key}" in ${fixturesDir}/templates; available: ` +
      `${keys.length ? keys.join(', ') : '(none: the directory is missing or holds no template files)'}`,
  );
}

async function writeCsv(template: Template, options: GenerateCsvOptions, io: GenerateCsvIo): Promise<void> {
  const out = options.out === undefined ? io.stdout : createWriteStream(options.out);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {});
  const progress = options.rows > CSV_CHUNK_ROWS;
  let written = -1; // the first chunk is the header line
  for (const chunk of recipientsCsvChunks(template, options.rows, options.seed)) {
    if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
    written = Math.min(options.rows, written + (written < 0 ? 1 : CSV_CHUNK_ROWS));
    if (progress && written > 0) io.stderr.write(`generate-csv: ${written}/${options.rows} rows\n`);
  }
  if (out !== io.stdout) {
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
  }
}
