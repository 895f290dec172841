/**
 * The header row of a recipients CSV (docs/reference.md#upload-recipients-csv): checks every column name against the
 * spec's rules and the template's variableSchema, and precomputes column → variable mapping.
 */
import type { Template, VariableSchemaEntry } from '../schemas/records.js';
import type { ErrorDetails } from './errors.js';
import { csvFileError } from './error-messages.js';

/** The spec's column-name charset: letters, digits, underscores, hyphens. */
const COLUMN_NAME = /^[A-Za-z0-9_-]+$/;
/** `user_id` per the spec; `userId` as the real docs spell it (docs/reference.md#upload-recipients-csv [real docs]). */
export const ID_COLUMNS = ['user_id', 'userId'] as const;

export interface VariableColumn {
  /** Position of the column in each record. */
  index: number;
  name: string;
  entry: VariableSchemaEntry;
  /** image/action cells hold JSON text; string cells are taken as they are. */
  json: boolean;
}

export interface ColumnPlan {
  idIndex: number;
  /** `user_id` or `userId`, as the file spells it (for row messages). */
  idName: string;
  width: number;
  variables: VariableColumn[];
}

/** Maps header cells to the id column and template variables; throws listing every problem. */
export function planColumns(header: readonly string[], template: Template, headerRow: number): ColumnPlan {
  const details: ErrorDetails = {};
  const entries = new Map(template.variableSchema.map((e) => [e.key, e]));
  const seen = new Map<string, number>();
  const variables: VariableColumn[] = [];
  const idIndexes: number[] = [];

  header.forEach((name, index) => {
    if (name === '') {
      details[`column #${index + 1}`] = 'has an empty name';
      return;
    }
    if (!COLUMN_NAME.test(name)) {
      details[`column ${name}`] = 'has a bad name: column names may hold only letters, digits, "_" and "-"';
      return;
    }
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    if (count > 1) {
      details[`column ${name}`] = `appears ${count} times in the header row`;
      return;
    }
    if ((ID_COLUMNS as readonly string[]).includes(name)) {
      idIndexes.push(index);
      return;
    }
    const entry = entries.get(name);
    if (!entry) {
      details[`column ${name}`] =
        `is not a variable of template "${template.key}" (its variables: ${listKeys(template)})`;
      return;
    }
    variables.push({ index, name, entry, json: entry.type !== 'string' });
  });

  if (idIndexes.length === 0) {
    details['column user_id'] = 'is missing: the header row needs a user_id (or userId) column';
  } else if (idIndexes.length > 1) {
    details['column userId'] = 'duplicates the user_id column: use only one of user_id and userId';
  }
  const present = new Set(header);
  for (const entry of template.variableSchema) {
    if (entry.required && !present.has(entry.key)) {
      details[`column ${entry.key}`] =
        `is missing: template "${template.key}" requires variable "${entry.key}" (type "${entry.type}")`;
    }
  }

  const problems = Object.keys(details);
  if (problems.length > 0) {
    // "user_id;name;code" arrives as one column: a file saved with another delimiter (spreadsheets in many locales).
    const otherDelimiter = header.length === 1 ? [';', '\t', '|'].find((d) => header[0]!.includes(d)) : undefined;
    const shape = otherDelimiter === '\t' ? 'tab' : `"${otherDelimiter}"`;
    const hint = otherDelimiter ? ` The header row looks ${shape}-delimited: the delimiter must be a comma (",").` : '';
    if (hint) details.delimiter = `must be a comma; the header row holds ${JSON.stringify(otherDelimiter)} instead`;
    throw csvFileError(
      `The CSV header row (row ${headerRow}) is not accepted: ` +
        `${problems.map((k) => `${k} ${details[k]}`).join('; ')}.${hint}`,
      details,
    );
  }
  const idIndex = idIndexes[0] as number;
  return { idIndex, idName: header[idIndex] as string, width: header.length, variables };
}

function listKeys(template: Template): string {
  return template.variableSchema.length ? template.variableSchema.map((e) => e.key).join(', ') : 'none';
}
