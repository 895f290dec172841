/**
 * One data record of a recipients CSV → a recipient row or a row error (docs/reference.md#upload-recipients-csv):
 * field count, user id, required variables, image/action JSON cells.
 */
import type { ColumnPlan } from './csv-header.js';
import { problemWithValue } from './variables.js';

/** Distinct image/action cells remembered per column; files of all-distinct cells just parse each. */
const JSON_CACHE_LIMIT = 4096;
/** After this many lookups a column whose cells rarely repeat stops looking them up. */
const JSON_CACHE_TRIAL = 1024;

export interface CsvRowError {
  row: number;
  reason: string;
}
/**
 * Receives each accepted row as it is read. The file may still be refused afterwards (a
 * quoting error or the row limit further on), so collect rows and act only once
 * readRecipientsCsv returns: a refused file must add nothing.
 */
export type CsvRowSink = (row: number, userId: string, variables: Record<string, unknown>) => void;

/** Reads the non-blank data records after the header; `errors` holds row problems in file order. */
export interface RowReader {
  errors: CsvRowError[];
  read(record: string[], row: number): void;
}

interface JsonCell {
  value: unknown;
  problem: string | null;
}

/** The hot loop: kept free of per-row closures; one variables object per accepted row. */
export function createRowReader(plan: ColumnPlan, onRow: CsvRowSink): RowReader {
  const errors: CsvRowError[] = [];
  const { idIndex, idName, width, variables: columns } = plan;
  // Campaign files repeat the same banner/button JSON on most rows: parse and check each once.
  // The lookup is most of this loop's time (papaparse's unescaped cells are cons strings
  // the Map flattens and hashes), yet cheaper than JSON.parse per cell, and rows share values.
  const jsonCells = columns.map(() => ({
    cache: new Map<string, JsonCell>() as Map<string, JsonCell> | null,
    lookups: 0,
    hits: 0,
  }));
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
        if (column.entry.required)
          problems += `${problems ? '; ' : ''}column ${column.name}: required variable "${column.name}" is empty`;
        continue;
      }
      if (!column.json) {
        variables[column.name] = cell;
        continue;
      }
      const cells = jsonCells[c]!;
      let parsed = cells.cache?.get(cell);
      if (parsed !== undefined) cells.hits++;
      else {
        parsed = readJsonCell(column, cell);
        if (cells.cache && cells.cache.size < JSON_CACHE_LIMIT) cells.cache.set(cell, parsed);
      }
      // Generated or per-user cells (all distinct) would pay a hash per row for nothing.
      if (cells.cache && ++cells.lookups === JSON_CACHE_TRIAL && cells.hits * 4 < cells.lookups) cells.cache = null;
      if (parsed.problem !== null) problems += `${problems ? '; ' : ''}column ${column.name}: ${parsed.problem}`;
      else variables[column.name] = parsed.value;
    }
    if (problems) errors.push({ row, reason: problems });
    else onRow(row, userId, variables);
  }
  return { errors, read };
}

/**
 * An image/action cell: JSON text of the value shape (docs/reference.md#templates).
 * Values are frozen: rows share them.
 */
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
