/**
 * Reads a trace from its lines and checks all of it before anything uses it: the header
 * first (another format or version is named as such), then every record. A list written one
 * record per line (write.ts) is parsed line by line; any other layout of the same JSON (a
 * file reformatted by hand) is parsed whole. Reading and checking go in slices (slices.ts):
 * the running emulator answers meanwhile, with its state untouched until all of it is good.
 */
import type { z } from 'zod';
import { depthExceeds, mayBeTooDeep, MAX_JSON_DEPTH } from '../domain/json-depth.js';
import { issueProblems } from '../schemas/issues.js';
import { TRACE_FORMAT, TRACE_LIST_NAMES, TRACE_LISTS, TRACE_VERSION, TraceHeaderSchema } from './schema.js';
import type { Trace, TraceListName, TraceLists } from './schema.js';
import { Slices } from './slices.js';

/** A trace that cannot be used, with every problem found (at most MAX_PROBLEMS of the records'). */
export class TraceProblem extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

const MAX_PROBLEMS = 10;
/** A record may hold values as deep as a request body may be, a level or two down (a template's content). */
const RECORD_DEPTH = MAX_JSON_DEPTH + 2;

/** JSON text as a value, or what is wrong with it: not whole, or nested too deep to serialise again. */
function parseJson(text: string, maxDepth: number): { value?: unknown; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `is not whole JSON (truncated?): ${(error as Error).message}` };
  }
  if (mayBeTooDeep(text, maxDepth) && depthExceeds(value, maxDepth))
    return { problem: `is nested more than ${maxDepth} levels deep` };
  return { value };
}
const LIST_OPENER = /^"([A-Za-z]+)":\[$/;

/** Each problem of `error` at its place in the trace: `deliveries[3].status: …` (a missing field "is required"). */
const issuesOf = (where: string, error: z.ZodError) =>
  issueProblems(error, null, (path) => [where, ...path.map(String)].join('.').replace(/\.(\d+)/g, '[$1]'));

/** The header's problems, format and version first: past a wrong one nothing else is worth reading. */
function checkHeader(document: unknown): z.infer<typeof TraceHeaderSchema> {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new TraceProblem(['the document is not a JSON object (a trace starts with {"format":…})']);
  const { format, version } = document as Record<string, unknown>;
  if (format !== TRACE_FORMAT)
    throw new TraceProblem([`format: expected "${TRACE_FORMAT}", got ${JSON.stringify(format) ?? 'nothing'}`]);
  if (version !== TRACE_VERSION)
    throw new TraceProblem([
      `version: this emulator reads trace version ${TRACE_VERSION}, the file is version ${JSON.stringify(version)}`,
    ]);
  const parsed = TraceHeaderSchema.safeParse(document);
  if (!parsed.success) throw new TraceProblem(issuesOf('trace', parsed.error));
  return parsed.data;
}

export async function readTrace(lines: AsyncIterable<string>): Promise<Trace> {
  const streamed = new Map<TraceListName, unknown[]>();
  const problems: string[] = [];
  let moreProblems = 0;
  const problem = (text: string) => (problems.length < MAX_PROBLEMS ? problems.push(text) : moreProblems++);
  let skeleton = '';
  let open: { name: TraceListName; list: unknown[]; line: number } | undefined;
  let lineNumber = 0;
  const slices = new Slices();
  for await (const line of lines) {
    lineNumber++;
    if (slices.spent()) await slices.next();
    if (open) {
      if (line === ']' || line === '],' || line === ']}') {
        skeleton += line.slice(1) + '\n';
        open = undefined;
        continue;
      }
      if (line.trim() === '') continue;
      const where = `line ${lineNumber}: ${open.name}[${open.list.length}]`;
      const record = parseJson(line.endsWith(',') ? line.slice(0, -1) : line, RECORD_DEPTH);
      if (record.problem === undefined) open.list.push(record.value);
      else problem(`${where} ${record.problem}`);
      continue;
    }
    const opener = LIST_OPENER.exec(line);
    if (opener && opener[1]! in TRACE_LISTS && !streamed.has(opener[1] as TraceListName)) {
      const name = opener[1] as TraceListName;
      open = { name, list: [], line: lineNumber };
      streamed.set(name, open.list);
      skeleton += `${line}]`;
      continue;
    }
    skeleton += line + '\n';
  }
  if (lineNumber === 0 || skeleton.trim() === '') throw new TraceProblem(['the file is empty']);
  if (open)
    throw new TraceProblem([
      `the file ends inside the "${open.name}" list opened on line ${open.line}: it is truncated`,
    ]);
  const { value: document, problem: unreadable } = parseJson(skeleton, RECORD_DEPTH + 2);
  if (unreadable !== undefined) throw new TraceProblem([`the document ${unreadable}`]);
  const header = checkHeader(document);
  const lists = {} as Record<TraceListName, unknown[]>;
  for (const name of TRACE_LIST_NAMES) {
    const given = streamed.get(name) ?? (document as Record<string, unknown>)[name];
    if (!Array.isArray(given)) {
      problem(`${name}: must be a list of records`);
      continue;
    }
    const schema = TRACE_LISTS[name];
    // Checked in place: a million deliveries are not held twice.
    for (let i = 0; i < given.length; i++) {
      const parsed = schema.safeParse(given[i]);
      if (parsed.success) given[i] = parsed.data;
      else for (const text of issuesOf(`${name}[${i}]`, parsed.error)) problem(text);
      if (slices.spent()) await slices.next();
    }
    lists[name] = given as unknown[];
  }
  // A recipient or upload of a campaign the trace does not hold would be kept unseen, or dropped unsaid
  // (checked once every record is good: only then are they records).
  if (problems.length === 0) {
    const campaignIds = new Set((lists.campaigns as { id: string }[]).map((c) => c.id));
    for (const name of ['recipients', 'campaignUploads'] as const)
      (lists[name] as { campaignId: string }[]).forEach(({ campaignId }, i) => {
        if (!campaignIds.has(campaignId))
          problem(`${name}[${i}].campaignId: the trace holds no campaign "${campaignId}"`);
      });
  }
  if (problems.length)
    throw new TraceProblem(moreProblems ? [...problems, `and ${moreProblems} more problem(s)`] : problems);
  return { ...header, ...(lists as TraceLists) };
}
