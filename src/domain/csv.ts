/**
 * Reads an uploaded recipients CSV (spec "CSV rules", docs/reference.md#upload-recipients-csv) record by record.
 * File-level problems throw ERR_BAD_REQUEST; row-level problems skip the row and are listed.
 */
import Papa from 'papaparse';
import type { Template } from '../schemas/records.js';
import { planColumns } from './csv-header.js';
import { csvFileError } from './error-messages.js';
import { createRowReader, type CsvRowError, type CsvRowSink, type RowReader } from './csv-rows.js';
import type { ErrorDetails } from './errors.js';

export type { CsvRowError, CsvRowSink } from './csv-rows.js';

export const MAX_CSV_ROWS = 100_000;
/** Quoting errors named in a refusal's details. */
const MAX_REPORTED_QUOTE_ERRORS = 20;

export interface CsvRecipientRow {
  /** Spreadsheet-style: the header is row 1, the first data record row 2. */
  row: number;
  userId: string;
  variables: Record<string, unknown>;
}
export interface CsvReadSummary {
  errors: CsvRowError[];
  /** Non-blank data records: accepted rows + errors.length. */
  dataRows: number;
}
export interface ParsedRecipientsCsv extends CsvReadSummary {
  rows: CsvRecipientRow[];
}

/** The whole file as rows (tests, tools); the upload path streams with readRecipientsCsv. */
export function parseRecipientsCsv(
  input: Uint8Array,
  template: Template,
  options: { maxRows?: number } = {},
): ParsedRecipientsCsv {
  const rows: CsvRecipientRow[] = [];
  const summary = readRecipientsCsv(
    input,
    template,
    (row, userId, variables) => rows.push({ row, userId, variables }),
    options,
  );
  return { rows, ...summary };
}

/** Reads a recipients CSV piece by piece, in file order (an upload as its body streams in). */
export interface RecipientsCsvReader {
  /** The next bytes of the file. Work is proportional to the piece: feed pieces of a few dozen KiB. */
  write(bytes: Uint8Array): void;
  /** The end of the file: throws the file-level refusal, or returns the summary. */
  end(): CsvReadSummary;
}

/** The whole file at once (tests, tools): see createRecipientsCsvReader. */
export function readRecipientsCsv(
  input: Uint8Array,
  template: Template,
  onRow: CsvRowSink,
  options: { maxRows?: number } = {},
): CsvReadSummary {
  const reader = createRecipientsCsvReader(template, onRow, options);
  reader.write(input);
  return reader.end();
}

/**
 * CRLF, LF and lone CR all end a record; one form lets papaparse skip its guess and
 * handles files that mix them [decided: CR inside quoted cells reaches variables as LF].
 * A CR ending one piece is held back until the next shows whether an LF follows.
 */
function createLineEnds() {
  /** A CR at the end of a piece: it may be the first half of a CRLF. */
  let heldCr = false;
  return {
    normalise(text: string): string {
      if (heldCr) text = `\r${text}`;
      heldCr = false;
      if (!text.includes('\r')) return text;
      if (text.endsWith('\r')) {
        heldCr = true;
        text = text.slice(0, -1);
      }
      return text.replace(/\r\n?/g, '\n');
    },
    holdsCr: () => heldCr,
  };
}

/** What the reader found, once the whole file is read. */
interface ReadState {
  quoteErrorCount: number;
  quoteErrors: ErrorDetails;
  headerError: unknown;
  reader: RowReader | null;
  dataRows: number;
  maxRows: number;
}

/** The file's summary, or its first file-level problem in the documented order (after UTF-8). */
function summaryOf({
  quoteErrorCount,
  quoteErrors,
  headerError,
  reader,
  dataRows,
  maxRows,
}: ReadState): CsvReadSummary {
  if (quoteErrorCount > 0) {
    const first = Object.keys(quoteErrors)[0] as string;
    throw csvFileError(
      `The CSV file cannot be parsed: ${first}: ${quoteErrors[first]}. Quote cells holding commas, quotes or line ` +
        `breaks, and double the quotes inside them.`,
      quoteErrors,
    );
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
  return { errors: reader.errors, dataRows };
}

/**
 * File-level problems throw ApiError('ERR_BAD_REQUEST', …, {details}) from end(), checked in
 * this order: UTF-8, quoting anywhere, no header, header rules, row limit. Each record is
 * checked as papaparse reads it, so no table of the whole file is ever built, and the file
 * is never held whole as text: a record cut between two pieces waits for the next one.
 */
export function createRecipientsCsvReader(
  template: Template,
  onRow: CsvRowSink,
  options: { maxRows?: number } = {},
): RecipientsCsvReader {
  const maxRows = options.maxRows ?? MAX_CSV_ROWS;
  const quoteErrors: ErrorDetails = {};
  let quoteErrorCount = 0;
  let headerError: unknown = null;
  let reader: RowReader | null = null;
  let dataRows = 0;
  let row = 0;
  let notUtf8 = false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  /** The start of a record not yet complete, carried into the next piece. */
  let partial = '';
  const lineEnds = createLineEnds();

  const parser = new Papa.Parser({
    delimiter: ',',
    newline: '\n',
    quoteChar: '"',
    escapeChar: '"',
    step(results: Papa.ParseStepResult<string[]>) {
      row++;
      const record = (results.data as unknown as string[][])[0] as string[];
      if (results.errors.length > 0) {
        for (const error of results.errors) {
          if (quoteErrorCount++ < MAX_REPORTED_QUOTE_ERRORS)
            quoteErrors[`row ${row}`] ??= `${error.message} (${error.code})`;
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

  /** Parses `text` after the carried partial record; the last record waits unless this is the end. */
  function parse(text: string, last: boolean): void {
    const input = partial + text;
    if (input === '') return;
    const results = parser.parse(input, 0, !last) as { meta: { cursor: number } };
    partial = last ? '' : input.slice(results.meta.cursor);
  }

  return {
    write(bytes) {
      if (notUtf8 || bytes.length === 0) return;
      let text: string;
      try {
        text = decoder.decode(bytes, { stream: true });
      } catch {
        notUtf8 = true; // refused at end(); nothing more is read
        partial = '';
        return;
      }
      parse(lineEnds.normalise(text), false);
    },
    end() {
      if (!notUtf8) {
        // Only the decoder's refusal means "not UTF-8": what the sink throws on the last rows goes on up.
        let rest: string | null = null;
        try {
          rest = decoder.decode();
        } catch {
          notUtf8 = true;
        }
        if (rest !== null) {
          let text = lineEnds.normalise(rest);
          if (lineEnds.holdsCr()) text += '\n'; // the file ended on a CR
          parse(text, true);
        }
      }
      if (notUtf8)
        throw csvFileError('The CSV file is not valid UTF-8: save it with UTF-8 encoding.', {
          file: 'is not valid UTF-8',
        });
      return summaryOf({ quoteErrorCount, quoteErrors, headerError, reader, dataRows, maxRows });
    },
  };
}

/** A record with no content (an empty line, or only commas) is ignored, but keeps its row number. */
function isBlank(record: readonly string[]): boolean {
  for (let i = 0; i < record.length; i++) if (record[i] !== '') return false;
  return true;
}
