/**
 * Reads everything a fixture set needs from a live account: every template (paging through
 * `GET /api/templates`), each template's template-channel rows and every channel. Any failed
 * or malformed read throws a LiveReadError: callers act only on a complete account.
 */
import type { z } from 'zod';
import {
  LiveChannelSchema,
  LiveTemplateChannelSchema,
  LiveTemplateSchema,
  type LiveChannel,
  type LiveTemplate,
  type LiveTemplateChannel,
} from '../../schemas/live-account.js';
import { kindOf } from '../../schemas/json-object.js';
import { LiveReadError, type LiveClient } from './client.js';

/** Items asked for per page. */
export const PAGE_LIMIT = 100;
/** A guard against a server that never ends a list. */
const MAX_PAGES = 10_000;
/** Row reads in flight at once. */
const ROW_READS_IN_FLIGHT = 4;

export interface LiveAccount {
  templates: LiveTemplate[];
  /** Rows per template id; null when the server has no template-channel endpoint (404). */
  rows: Map<string, LiveTemplateChannel[]> | null;
  channels: LiveChannel[];
}

function parseItems<T extends z.ZodType>(schema: T, items: unknown[], what: string): z.infer<T>[] {
  return items.map((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length ? issue.path.join('.') : '(item)';
    throw new LiveReadError(`${what}: item ${index}: field "${field}": ${issue.message}`);
  });
}

function totalCount(headers: Headers, what: string): number | null {
  const header = headers.get('x-total-count');
  if (header === null || header.trim() === '') return null;
  if (!/^\d+$/.test(header.trim())) throw new LiveReadError(`${what}: X-Total-Count "${header}" is not a count`);
  return Number(header.trim());
}

const identity = (item: unknown): string => {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? `id:${id}` : `json:${JSON.stringify(item)}`;
};

/**
 * Every item of a paged list. Stops at an empty page, at `X-Total-Count`, at a short page
 * when there is no count, and when the server ignores paging (a first page longer than the
 * limit, or a later page that only repeats items already read).
 */
export async function readAllPages(
  client: LiveClient,
  path: string,
  filter?: Record<string, string>,
): Promise<unknown[]>;
export async function readAllPages(
  client: LiveClient,
  path: string,
  filter: Record<string, string>,
  allow404: true,
): Promise<unknown[] | null>;
export async function readAllPages(
  client: LiveClient,
  path: string,
  filter: Record<string, string> = {},
  allow404 = false,
): Promise<unknown[] | null> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  const filterText = new URLSearchParams(filter).toString();
  for (let page = 1; page <= MAX_PAGES; page++) {
    const response = await client.get(path, { ...filter, page, limit: PAGE_LIMIT }, allow404 && page === 1);
    if (response === null) return null;
    const what = `GET ${client.baseUrl}${path}${filterText ? `?${filterText}` : ''} (page ${page})`;
    if (!Array.isArray(response.json)) {
      throw new LiveReadError(`${what} answered ${kindOf(response.json)} where a JSON array was expected`);
    }
    const list = response.json as unknown[];
    const total = totalCount(response.headers, what);
    const fresh = list.filter((item) => !seen.has(identity(item)));
    if (page > 1 && list.length > 0 && fresh.length === 0) {
      // The server answers the same items whatever the page: it does not page.
      if (total !== null && seen.size < total) {
        throw new LiveReadError(
          `${what} repeats items of earlier pages: ` +
            `read ${seen.size} of the ${total} the server counts (it seems to ignore "page")`,
        );
      }
      return items;
    }
    for (const item of fresh) {
      seen.add(identity(item));
      items.push(item);
    }
    if (list.length === 0) return items;
    if (page === 1 && list.length > PAGE_LIMIT) return items; // the whole list in one answer
    if (total !== null ? seen.size >= total : list.length < PAGE_LIMIT) return items;
  }
  throw new LiveReadError(
    `GET ${client.baseUrl}${path}${filterText ? `?${filterText}` : ''} did not end after ${MAX_PAGES} pages`,
  );
}

async function readRows(client: LiveClient, templates: LiveTemplate[]): Promise<LiveAccount['rows']> {
  const rows = new Map<string, LiveTemplateChannel[]>();
  let missing = false;
  let failed = false;
  let next = 0;
  const work = async () => {
    while (next < templates.length && !missing && !failed) {
      const template = templates[next++]!;
      const list = await readAllPages(client, '/api/template-channels', { templateId: template.id }, true);
      if (list === null) {
        missing = true;
        return;
      }
      const what = `GET ${client.baseUrl}/api/template-channels?templateId=${template.id}`;
      rows.set(template.id, parseItems(LiveTemplateChannelSchema, list, what));
    }
  };
  // One failure stops the other readers from starting new requests.
  const worker = () =>
    work().catch((error: unknown) => {
      failed = true;
      throw error;
    });
  await Promise.all(Array.from({ length: Math.min(ROW_READS_IN_FLIGHT, templates.length) }, worker));
  return missing ? null : rows;
}

export async function readLiveAccount(client: LiveClient): Promise<LiveAccount> {
  const templates = parseItems(
    LiveTemplateSchema,
    await readAllPages(client, '/api/templates'),
    `GET ${client.baseUrl}/api/templates`,
  );
  const channels = parseItems(
    LiveChannelSchema,
    await readAllPages(client, '/api/channels'),
    `GET ${client.baseUrl}/api/channels`,
  );
  const rows = await readRows(client, templates);
  return { templates, rows, channels };
}
