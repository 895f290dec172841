/**
 * What a data file must be before the store takes it: a JSON object marked as the emulator's
 * (`"format": "notification-emulator-data", "version": 1`) whose every record fits its kind's
 * schema. A file that is not one is refused whole, naming the file and each problem, and is
 * never written: only a file the emulator recognises as its own may be overwritten later.
 */
import { z } from 'zod';
import { closestName } from '../domain/did-you-mean.js';
import { ConfigError } from '../domain/errors.js';
import type { AppState } from '../domain/ports.js';
import { issueProblems } from '../schemas/issues.js';
import { RECORD_LISTS } from '../schemas/record-lists.js';
import { emptyStoreData, type StoreData } from './store-data.js';

export const DATA_FILE_FORMAT = 'notification-emulator-data';
export const DATA_FILE_VERSION = 1;

/** The mark every data file starts with, as written. */
export const DATA_FILE_MARK = { format: DATA_FILE_FORMAT, version: DATA_FILE_VERSION } as const;

const AppStateSchema = z.object({
  appId: z.string().min(1),
  clock: z.object({ mode: z.enum(['real', 'manual']), now: z.string() }).nullable(),
  activeScenarios: z.array(z.string()).nullable(),
}) satisfies z.ZodType<AppState>;

type ListKey = { [K in keyof StoreData]: StoreData[K] extends unknown[] ? K : never }[keyof StoreData];

/** Each record list's element schema. Journal fields added over time may be missing (the store fills them). */
const RECORD_SCHEMAS: Record<ListKey, z.ZodType> = {
  ...RECORD_LISTS,
  journal: RECORD_LISTS.journal.partial({
    query: true,
    rules: true,
    requestHeaders: true,
    requestBody: true,
    requestBodyTruncated: true,
    responseBody: true,
    responseBodyTruncated: true,
  }),
  appStates: AppStateSchema,
};

const DATA_KEYS = Object.keys(emptyStoreData()) as (keyof StoreData)[];
const MAX_PROBLEMS = 10;

/** How a refused file is left, and what the user can do: said once, after the problems. */
export const LEFT_UNTOUCHED =
  'The file was left untouched. Name another file, or move or delete this one to start with empty state.';

/** What a JSON value is, in a user's words: "a list", "a string". */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** An unmarked object whose every key is one of a data file's, as earlier versions wrote them. */
function isOurs(data: Record<string, unknown>): boolean {
  const keys = Object.keys(data);
  return keys.length > 0 && keys.every((key) => (DATA_KEYS as string[]).includes(key));
}

/** Format and version: past a wrong one nothing else is worth reading. */
function markProblem(data: Record<string, unknown>): string | undefined {
  const { format, version } = data;
  if (format === undefined) {
    return isOurs(data)
      ? 'it has the keys of a data file written by an earlier version of the emulator, but not the mark ' +
          `every data file now starts with. To keep its records, add "format": "${DATA_FILE_FORMAT}", ` +
          `"version": ${DATA_FILE_VERSION} at its top`
      : `it is not an emulator data file (it has no "format": "${DATA_FILE_FORMAT}")`;
  }
  if (format !== DATA_FILE_FORMAT)
    return `it is not an emulator data file ("format" is ${JSON.stringify(format)}, not "${DATA_FILE_FORMAT}")`;
  if (version !== DATA_FILE_VERSION)
    return (
      `"version": this emulator reads data file version ${DATA_FILE_VERSION}, ` +
      (version === undefined ? 'the file names none' : `the file is version ${JSON.stringify(version)}`)
    );
  return undefined;
}

/** Problems shown per record: a record of another shape would otherwise fill the list with its every field. */
const PER_RECORD = 3;

/** A record's problems at their place (`deliveries[3].status: …`), the first few, then how many more. */
function recordProblems(key: ListKey, index: number, error: z.ZodError): string[] {
  const where = `${key}[${index}]`;
  const all = issueProblems(error, null, (path) => [where, ...path.map(String)].join('.').replace(/\.(\d+)/g, '[$1]'));
  if (all.length <= PER_RECORD) return all;
  return [...all.slice(0, PER_RECORD), `${where}: and ${all.length - PER_RECORD} more fields like these`];
}

/** The problems of the keys and records past the mark, in one pass over the records. */
function contentProblems(data: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'format' || key === 'version') continue;
    if (!(DATA_KEYS as string[]).includes(key)) {
      const near = closestName(key, DATA_KEYS);
      problems.push(`"${key}": not a key of a data file${near ? ` (did you mean "${near}"?)` : ''}`);
    } else if (key === 'droppedDeliveries') {
      if (!Number.isSafeInteger(value) || (value as number) < 0)
        problems.push(`"droppedDeliveries": must be a whole number >= 0 (got ${kindOf(value)})`);
    } else if (!Array.isArray(value)) {
      problems.push(`"${key}": must be a list of records (got ${kindOf(value)})`);
    } else {
      const schema = RECORD_SCHEMAS[key as ListKey];
      for (let i = 0; i < value.length && problems.length <= MAX_PROBLEMS; i++) {
        const parsed = schema.safeParse(value[i]);
        if (!parsed.success) problems.push(...recordProblems(key as ListKey, i, parsed.error));
      }
    }
    if (problems.length > MAX_PROBLEMS) break;
  }
  return problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS), 'and more problems'] : problems;
}

/**
 * The file's records, with defaults for a list it lacks, or a ConfigError naming `path` and
 * every problem (the records are the file's own objects: a schema never rewrites them).
 */
export function checkDataFile(path: string, data: unknown): StoreData {
  const refuse = (problems: string[]): never => {
    throw new ConfigError([...problems.map((problem) => `--data-file ${path}: ${problem}`), LEFT_UNTOUCHED]);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return refuse([`it is not an emulator data file (it holds ${kindOf(data)}, not an object)`]);
  const record = data as Record<string, unknown>;
  const mark = markProblem(record);
  // An earlier version's file is checked on: adding the mark must be all it takes.
  if (mark !== undefined)
    return refuse(record.format === undefined && isOurs(record) ? [mark, ...contentProblems(record)] : [mark]);
  const problems = contentProblems(record);
  if (problems.length) return refuse(problems);
  const { format: _format, version: _version, ...lists } = record;
  return { ...emptyStoreData(), ...(lists as Partial<StoreData>) };
}
