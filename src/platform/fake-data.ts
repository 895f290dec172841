/**
 * Seeded fake recipients CSVs for a template (the `generate-csv` command, tests, benchmarks):
 * realistic cell values picked by variable key, image/action cells as quoted JSON.
 */
import type { Faker } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import type { Template, VariableSchemaEntry } from '../schemas/records.js';
import { createRandom } from './random.js';

/** Rows per chunk yielded by recipientsCsvChunks (and per progress line of the command). */
export const CSV_CHUNK_ROWS = 10_000;
/** Distinct values drawn from faker per column; rows pick from it (faker per cell is too slow for 100k rows). */
const POOL_SIZE = 1024;

/**
 * A seeded faker of the English locale. Built from the English entry point's own instance: the
 * package's main entry point loads every locale (~430 ms holding the event loop, 17 MB, the
 * first time the inspector shows an app's templates), the English one ~60 ms and 3 MB.
 */
const seededFaker = (seed: number): Faker =>
  new (englishFaker.constructor as new (options: { locale: Faker['rawDefinitions']; seed: number }) => Faker)({
    locale: englishFaker.rawDefinitions,
    seed,
  });
/** Share of rows that leave an optional variable empty (so omission is exercised). */
const OPTIONAL_EMPTY_RATE = 0.1;

type CellSource = (rowIndex: number) => string;
interface ColumnSource {
  name: string;
  optional: boolean;
  cell: CellSource;
}

/** RFC 4180 quoting, only where needed. */
export function csvCell(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The CSV as one string (header + `rows` data rows, LF line ends). */
export function generateRecipientsCsv(template: Template, rows: number, seed = 1): string {
  let out = '';
  for (const chunk of recipientsCsvChunks(template, rows, seed)) out += chunk;
  return out;
}

/** The CSV in pieces: the header line, then up to CSV_CHUNK_ROWS rows per piece. Same seed, same bytes. */
export function* recipientsCsvChunks(template: Template, rows: number, seed = 1): Generator<string, void, undefined> {
  const faker = seededFaker(seed);
  const random = createRandom(seed);
  const columns = template.variableSchema.map((entry) => columnSource(faker, entry));
  const width = Math.max(6, String(rows).length);
  yield `user_id${columns.map((c) => `,${c.name}`).join('')}\n`;
  for (let start = 0; start < rows; start += CSV_CHUNK_ROWS) {
    const end = Math.min(rows, start + CSV_CHUNK_ROWS);
    const lines: string[] = [];
    for (let i = start; i < end; i++) {
      let line = `user-${String(i + 1).padStart(width, '0')}`;
      for (const column of columns) {
        line += column.optional && random.next() < OPTIONAL_EMPTY_RATE ? ',' : `,${column.cell(i)}`;
      }
      lines.push(line);
    }
    yield `${lines.join('\n')}\n`;
  }
}

/**
 * One recipient's variables for `template`, drawn as generate-csv draws a row's cells (optional
 * ones always filled): strings as text, image and action values as objects. Same seed, same values.
 */
export function sampleVariables(template: Template, seed = 1): Record<string, unknown> {
  const faker = seededFaker(seed);
  const values: Record<string, unknown> = {};
  for (const entry of template.variableSchema) {
    const sequence = entry.type === 'string' ? sequencePrefix(entry.key) : null;
    const text =
      sequence !== null ? `${sequence}${faker.number.int({ min: 100_000, max: 899_999 })}` : valueMaker(faker, entry)();
    values[entry.key] = entry.type === 'string' ? text : JSON.parse(text);
  }
  return values;
}

function columnSource(faker: Faker, entry: VariableSchemaEntry): ColumnSource {
  const base = { name: entry.key, optional: !entry.required };
  const sequence = sequencePrefix(entry.key);
  if (entry.type === 'string' && sequence !== null) {
    const offset = faker.number.int({ min: 100_000, max: 899_999 });
    return { ...base, cell: (i) => `${sequence}${offset + i}` };
  }
  const make = valueMaker(faker, entry);
  const pool = Array.from({ length: POOL_SIZE }, () => csvCell(make()));
  const pick = createRandom(faker.number.int({ min: 0, max: 2 ** 31 - 1 }));
  return { ...base, cell: () => pool[Math.floor(pick.next() * POOL_SIZE)] as string };
}

/** Keys naming an identifier or number: orderId, order_id, appointment_number, bookingRef. */
const SEQUENCE_KEY = /^id$|[a-z0-9]Id$|ID$|[_-]id$|[Nn]umber$|[_-]no$|[_-]?[Nn]um$|[_-]?[Rr]ef$|[Rr]eference$/;

/** Order/booking numbers get unique sequential values with a prefix from the key: "ORD-100231". */
function sequencePrefix(key: string): string | null {
  if (!SEQUENCE_KEY.test(key)) return null;
  const letters = key.replace(SEQUENCE_KEY, '').replace(/[^A-Za-z]/g, '');
  return `${(letters || 'REF').slice(0, 3).toUpperCase()}-`;
}

const IMAGE_SIZES = [
  [600, 400],
  [1200, 628],
  [300, 300],
  [1080, 1080],
  [640, 480],
] as const;

/** Realistic values from the variable's type and the words in its key. */
function valueMaker(faker: Faker, entry: VariableSchemaEntry): () => string {
  if (entry.type === 'image') {
    return () => {
      const [width, height] = faker.helpers.arrayElement(IMAGE_SIZES);
      return JSON.stringify({ url: faker.image.url({ width, height }), width, height });
    };
  }
  if (entry.type === 'action') {
    return () =>
      JSON.stringify(
        faker.number.float() < 0.8
          ? { type: 'web', data: `${faker.internet.url({ appendSlash: false })}/${faker.word.noun()}` }
          : { type: 'custom', data: `open_screen:${faker.word.noun()}` },
      );
  }
  const key = entry.key.toLowerCase().replace(/[^a-z]/g, '');
  if (/firstname|givenname/.test(key)) return () => faker.person.firstName();
  if (/lastname|surname|familyname/.test(key)) return () => faker.person.lastName();
  if (/product|item/.test(key)) return () => faker.commerce.productName();
  if (/company|store|shop|brand/.test(key)) return () => faker.company.name();
  if (/city/.test(key)) return () => faker.location.city();
  if (/country/.test(key)) return () => faker.location.country();
  if (/email|mail/.test(key)) return () => faker.internet.email();
  if (/phone|mobile/.test(key)) return () => faker.phone.number();
  if (/url|link|href/.test(key)) return () => faker.internet.url();
  if (/date|day/.test(key))
    return () => faker.date.soon({ days: 60, refDate: '2030-01-01T00:00:00.000Z' }).toISOString().slice(0, 10);
  if (/time/.test(key))
    return () => `${faker.number.int({ min: 8, max: 19 })}:${faker.helpers.arrayElement(['00', '15', '30', '45'])}`;
  if (/code|coupon|promo|voucher/.test(key)) {
    return () =>
      faker.helpers.arrayElement(['SAVE', 'DEAL', 'VIP', 'WELCOME', 'FALL']) +
      faker.string.alphanumeric({ length: 6, casing: 'upper' });
  }
  if (/amount|price|total|balance/.test(key)) return () => faker.commerce.price({ min: 5, max: 500, symbol: '$' });
  if (/percent|discount/.test(key)) return () => `${faker.number.int({ min: 5, max: 70 })}%`;
  if (/name|customer|user|recipient|patient|member/.test(key)) return () => faker.person.fullName();
  return () => faker.lorem.words({ min: 2, max: 4 });
}
