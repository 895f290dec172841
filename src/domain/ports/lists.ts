/** Paging, shared by every store port that answers a list, and the filters' type. */
import type { z } from 'zod';

export interface Page {
  limit: number;
  offset: number;
  /** `desc`: newest first, `offset` counted from the newest end. @default "asc" */
  order?: 'asc' | 'desc';
}

export interface ListResult<T> {
  total: number;
  items: T[];
}

/** A text value of any spelling: the store answers any text, not only the words a query accepts. */
type AnyText<T> = T extends string ? string : T;

/**
 * A store port's filter, from the schema of its inspect query: the same fields (a field
 * added to the schema is one here too), each optional, with text fields of any value.
 */
export type FilterOf<S extends z.ZodType> = { [K in keyof z.output<S>]?: AnyText<z.output<S>[K]> };
