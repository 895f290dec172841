/**
 * Reads an uploaded recipients CSV (spec "CSV rules", CONTRACT §5.3) record by record.
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
/** Quoting errors named in a refusal's details. */
const MAX_REPORTED_QUOTE_ERRORS = 20;

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
export interface CsvReadSummary {
  errors: CsvRowError[];
  /** Non-blank data records: accepted rows + errors.length. */
  dataRows: number;
}
export interface ParsedRecipientsCsv extends CsvReadSummary {
  rows: CsvRecipientRow[];
}
/**
 * Receives each accepted row as it is read. The file may still be refused afterwards (a
 * quoting error or the row limit further on), so collect rows and act only once
 * readRecipientsCsv returns: a refused file must add nothing.
 */
export type CsvRowSink = (row: number, userId: string, variables: Record<string, unknown>) => void;

/** The whole file as rows (tests, tools); the upload path streams with readRecipientsCsv. */
export function parseRecipientsCsv(input: Uint8Array, template: Template, options: { maxRows?: number } = {}): ParsedRecipientsCsv {
  const rows: CsvRecipientRow[] = [];
  const summary = readRecipientsCsv(input, template, (row, userId, variables) => rows.push({ row, userId, variables }), options);
  return { rows, ...summary };
}

/**
 * Throws ApiError('ERR_BAD_REQUEST', …, {details}) for file-level problems, checked in this
 * order: UTF-8, quoting anywhere, no header, header rules, row limit. Each record is checked
 * as papaparse reads it, so no table of the whole file is ever built.
 */
export function readRecipientsCsv(input: Uint8Array, template: Template, onRow: CsvRowSink, options: { maxRows?: number } = {}): CsvReadSummary {
  const maxRows = options.maxRows ?? MAX_CSV_ROWS;
  const quoteErrors: ErrorDetails = {};
  let quoteErrorCount = 0;
  let headerError: unknown = null;
  let reader: RowReader | null = null;
  let dataRows = 0;
  let row = 0;

  Papa.parse<string[]>(decodeUtf8(input), {
    header: false, delimiter: ',', newline: '\n', quoteChar: '"', escapeChar: '"', dynamicTyping: false,
    step(results) {
      row++;
      const record = results.data;
      if (results.errors.length > 0) {
        for (const error of results.errors) {
          if (quoteErrorCount++ < MAX_REPORTED_QUOTE_ERRORS) quoteErrors[`row ${row}`] ??= `${error.message} (${error.code})`;
        }
      }
      // After a quoting error, the header error or the limit, the file is refused: only count.
      if (quoteErrorCount > 0 || isBlank(record)) return;
      if (reader === null && headerError === null) {
        try {
          reader = createRowReader(planColumns(record, template, row), onRow);
        } catch (error) {
          headerError = error;
        }
        return;
      }
      dataRows++;
      if (reader !== null && dataRows <= maxRows) reader.read(record, row);
    },
  });

  if (quoteErrorCount > 0) {
    const first = Object.keys(quoteErrors)[0] as string;
    throw csvFileError(`The CSV file cannot be parsed: ${first}: ${quoteErrors[first]}. Quote cells holding commas, quotes or line breaks, and double the quotes inside them.`, quoteErrors);
  }
  if (headerError !== null) throw headerError;
  if (reader === null) {
    throw csvFileError('The CSV file is empty: its first row must hold the column headers, including user_id.', {
      'row 1': 'is missing: the file has no header row',
    });
  }
  if (dataRows > maxRows) {
    throw csvFileError(`The CSV file has ${dataRows} data rows; at most ${maxRows} are accepted per file.`, {
      file: `has ${dataRows} data rows, more than the limit of ${maxRows}`,
    });
  }
  return { errors: (reader as RowReader).errors, dataRows };
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
  // Files without CR (the common case) are used as they are: no copy.
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** A record with no content (an empty line, or only commas) is ignored, but keeps its row number. */
function isBlank(record: readonly string[]): boolean {
  for (let i = 0; i < record.length; i++) if (record[i] !== '') return false;
  return true;
}

interface RowReader {
  errors: CsvRowError[];
  read(record: string[], row: number): void;
}

interface JsonCell {
  value: unknown;
  problem: string | null;
}

/** The hot loop: kept free of per-row closures; one variables object per accepted row. */
function createRowReader(plan: ColumnPlan, onRow: CsvRowSink): RowReader {
  const errors: CsvRowError[] = [];
  const { idIndex, idName, width, variables: columns } = plan;
  // Campaign files repeat the same banner/button JSON on most rows: parse and check each once.
  const jsonCells = columns.map(() => new Map<string, JsonCell>());
  function read(record: string[], row: number): void {
    if (record.length !== width) {
      errors.push({ row, reason: `has ${record.length} fields but the header row has ${width}` });
      return;
    }
    const userId = record[idIndex] as string;
    if (userId.trim() === '') {
      errors.push({ row, reason: `${idName} is empty` });
      return;
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
    else onRow(row, userId, variables);
  }
  return { errors, read };
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
