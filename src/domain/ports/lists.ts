/** Paging, shared by every store port that answers a list. */

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
