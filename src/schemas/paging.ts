/**
 * Query-string helpers shared by every list of the emulated API: an empty value means the
 * parameter is absent, and the real service's `page` (from 1) + `limit` (default 20) are
 * turned into the store's `{ offset, limit }` here and nowhere else.
 */
import { z } from 'zod';

export const MAX_PAGE_LIMIT = 1000;
export const DEFAULT_PAGE_LIMIT = 20;

/** `?status=` is the same as no `status` at all (a client that always sends every parameter). */
export const absentWhenEmpty = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema);

const PAGE_RULE = 'must be an integer ≥ 1 (pages count from 1)';
const LIMIT_RULE = `must be an integer from 1 to ${MAX_PAGE_LIMIT}`;

const pageParams = {
  page: absentWhenEmpty(
    z.coerce.number({ error: PAGE_RULE }).int({ error: PAGE_RULE }).min(1, { error: PAGE_RULE }).default(1),
  ),
  limit: absentWhenEmpty(
    z.coerce
      .number({ error: LIMIT_RULE })
      .int({ error: LIMIT_RULE })
      .min(1, { error: LIMIT_RULE })
      .max(MAX_PAGE_LIMIT, { error: LIMIT_RULE })
      .default(DEFAULT_PAGE_LIMIT),
  ),
};

/** `{ offset, limit }`: what the store and the domain take. */
export interface PageWindow {
  offset: number;
  limit: number;
}

/**
 * A list query: `shape`'s filters plus `page` and `limit`, parsed into `{ ...filters, page: { offset, limit } }`.
 * Filters should be wrapped in absentWhenEmpty so `?status=` means "no status filter".
 */
export function pagedQuery<T extends z.ZodRawShape>(shape: T) {
  const schema = z.object(shape).extend(pageParams);
  type Filters = Omit<z.output<typeof schema>, 'page' | 'limit'>;
  return schema.transform((query) => {
    const { page, limit, ...filters } = query as { page: number; limit: number };
    return { ...(filters as Filters), page: { offset: (page - 1) * limit, limit } as PageWindow };
  });
}

/** One page of an in-memory list, with the total before paging (the X-Total-Count header). */
export function slicePage<T>(all: readonly T[], page: PageWindow): { total: number; items: T[] } {
  return { total: all.length, items: all.slice(page.offset, page.offset + page.limit) };
}
