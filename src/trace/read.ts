/**
 * Reads a trace from its lines and checks all of it before anything uses it: the header
 * first (another format or version is named as such), then every record. A list written one
 * record per line (write.ts) is parsed line by line; any other layout of the same JSON (a
 * file reformatted by hand) is parsed whole. Reading and checking go in slices (slices.ts):
 * the running emulator answers meanwhile, with its state untouched until all of it is good.
 */
import type { z } from 'zod';
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
const LIST_OPENER = /^"([A-Za-z]+)":\[$/;

const issuesOf = (where: string, error: z.ZodError) =>
  error.issues.map((issue) => `${[where, ...issue.path].join('.').replace(/\.(\d+)/g, '[$1]')}: ${issue.message}`);

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
      try {
        open.list.push(JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line));
      } catch {
        problem(`line ${lineNumber}: ${open.name}[${open.list.length}] is not whole JSON`);
      }
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
  let document: unknown;
  try {
    document = JSON.parse(skeleton);
  } catch (error) {
    throw new TraceProblem([`the document is not whole JSON (truncated?): ${(error as Error).message}`]);
  }
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
  // A recipient of a campaign the trace does not hold would be counted by the store, never shown.
  const campaignIds = new Set((lists.campaigns ?? []).map((c) => (c as { id: string }).id));
  (lists.recipients ?? []).forEach((r, i) => {
    const { campaignId } = r as { campaignId: string };
    if (!campaignIds.has(campaignId))
      problem(`recipients[${i}].campaignId: the trace holds no campaign "${campaignId}"`);
  });
  if (problems.length)
    throw new TraceProblem(moreProblems ? [...problems, `and ${moreProblems} more problem(s)`] : problems);
  return { ...header, ...(lists as TraceLists) };
}
