/**
 * Parses an uploaded recipients CSV (spec "CSV rules", CONTRACT §5.3) into recipient rows.
 * File-level problems throw ERR_BAD_REQUEST; row-level problems skip the row and are listed.
 */
import Papa from 'papaparse';
import type { Template } from '../schemas/records.js';
import { csvFileError, planColumns, type ColumnPlan } from './csv-header.js';
import type { ErrorDetails } from './errors.js';
import { problemWithValue } from './variables.js';

export const MAX_CSV_ROWS = 100_000;
/** Distinct image/action cells remembered per column; files of all-distinct cells just parse each. */
const JSON_CACHE_LIMIT = 4096;

export interface CsvRecipientRow {
  /** Spreadsheet-style: the header is row 1, the first data record row 2. */
  row: number;
  userId: string;
  variables: Record<string, unknown>;
}
export interface CsvRowError {
  row: number;
  reason: string;
}
export interface ParsedRecipientsCsv {
  rows: CsvRecipientRow[];
  errors: CsvRowError[];
  /** Non-blank data records: rows.length + errors.length. */
  dataRows: number;
}

/** Throws ApiError('ERR_BAD_REQUEST', …, {details}) for file-level problems; row-level problems go to `errors`. */
export function parseRecipientsCsv(input: Uint8Array, template: Template, options: { maxRows?: number } = {}): ParsedRecipientsCsv {
  const maxRows = options.maxRows ?? MAX_CSV_ROWS;
  const records = parseRecords(decodeUtf8(input));

  let headerIndex = 0;
  while (headerIndex < records.length && isBlank(records[headerIndex] as string[])) headerIndex++;
  const header = records[headerIndex];
  if (header === undefined) {
    throw csvFileError('The CSV file is empty: its first row must hold the column headers, including user_id.', {
      'row 1': 'is missing: the file has no header row',
    });
  }
  const plan = planColumns(header, template, headerIndex + 1);

  if (records.length - headerIndex - 1 > maxRows) {
    let count = 0;
    for (let i = headerIndex + 1; i < records.length; i++) if (!isBlank(records[i] as string[])) count++;
    if (count > maxRows) {
      throw csvFileError(`The CSV file has ${count} data rows; at most ${maxRows} are accepted per file.`, {
        file: `has ${count} data rows, more than the limit of ${maxRows}`,
      });
    }
  }
  return readRows(records, headerIndex + 1, plan);
}

/** Strict UTF-8; TextDecoder drops a leading BOM (ignoreBOM is false). */
function decodeUtf8(input: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    throw csvFileError('The CSV file is not valid UTF-8: save it with UTF-8 encoding.', { file: 'is not valid UTF-8' });
  }
  // CRLF, LF and lone CR all end a record; one form lets papaparse skip its guess and
  // handles files that mix them [decided: CR inside quoted cells reaches variables as LF].
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** RFC 4180 records; a quoting error anywhere refuses the whole file, naming the rows. */
function parseRecords(text: string): string[][] {
  const result = Papa.parse<string[]>(text, { header: false, delimiter: ',', newline: '\n', quoteChar: '"', escapeChar: '"', dynamicTyping: false });
  if (result.errors.length > 0) {
    const details: ErrorDetails = {};
    for (const error of result.errors.slice(0, 20)) {
      const key = `row ${(error.row ?? 0) + 1}`;
      details[key] ??= `${error.message} (${error.code})`;
    }
    const first = Object.keys(details)[0] as string;
    throw csvFileError(`The CSV file cannot be parsed: ${first}: ${details[first]}. Quote cells holding commas, quotes or line breaks, and double the quotes inside them.`, details);
  }
  return result.data;
}

/** A record with no content (an empty line, or only commas) is ignored, but keeps its row number. */
function isBlank(record: readonly string[]): boolean {
  for (let i = 0; i < record.length; i++) if (record[i] !== '') return false;
  return true;
}

/** The hot loop: kept free of per-row closures; one variables object per accepted row. */
function readRows(records: string[][], first: number, plan: ColumnPlan): ParsedRecipientsCsv {
  const rows: CsvRecipientRow[] = [];
  const errors: CsvRowError[] = [];
  const { idIndex, idName, width, variables: columns } = plan;
  // Campaign files repeat the same banner/button JSON on most rows: parse and check each once.
  const jsonCells = columns.map(() => new Map<string, JsonCell>());
  for (let i = first; i < records.length; i++) {
    const record = records[i] as string[];
    const row = i + 1;
    if (record.length !== width) {
      if (!isBlank(record)) errors.push({ row, reason: `has ${record.length} fields but the header row has ${width}` });
      continue;
    }
    const userId = record[idIndex] as string;
    if (userId.trim() === '') {
      if (!isBlank(record)) errors.push({ row, reason: `${idName} is empty` });
      continue;
    }
    const variables: Record<string, unknown> = {};
    let problems = '';
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c] as (typeof columns)[number];
      const cell = record[column.index] as string;
      if (cell === '') {
        if (column.entry.required) problems += `${problems ? '; ' : ''}column ${column.name}: required variable "${column.name}" is empty`;
        continue;
      }
      if (!column.json) {
        variables[column.name] = cell;
        continue;
      }
      const cache = jsonCells[c] as Map<string, JsonCell>;
      let parsed = cache.get(cell);
      if (parsed === undefined) {
        parsed = readJsonCell(column, cell);
        if (cache.size < JSON_CACHE_LIMIT) cache.set(cell, parsed);
      }
      if (parsed.problem !== null) problems += `${problems ? '; ' : ''}column ${column.name}: ${parsed.problem}`;
      else variables[column.name] = parsed.value;
    }
    if (problems) errors.push({ row, reason: problems });
    else rows.push({ row, userId, variables });
  }
  return { rows, errors, dataRows: rows.length + errors.length };
}

interface JsonCell {
  value: unknown;
  problem: string | null;
}

/** An image/action cell: JSON text of the value shape (CONTRACT §4). Values are frozen: rows share them. */
function readJsonCell(column: ColumnPlan['variables'][number], cell: string): JsonCell {
  let value: unknown;
  try {
    value = JSON.parse(cell);
  } catch (error) {
    return { value: undefined, problem: `not valid JSON (${(error as Error).message})` };
  }
  const problem = problemWithValue(column.entry, value);
  return { value: problem === null ? Object.freeze(value) : undefined, problem };
}
