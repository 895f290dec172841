/**
/**
 * The one live list every list view uses: filters that live in the URL and a form that
 * changes them, a page from the server (newest first, paged by links), kept live on the newest
 * page by the event stream with the same filters (the server applies them), stream events
 * rendered at most once per animation frame, and an optional pause that holds new records
 * back until the user resumes. A row whose view gives it a detail address (openableRow) opens
 * that detail on a click anywhere in it, or on Enter or Space when focused.
 */
import { frameBatcher, openStream, type StreamState, type StreamType } from './api.js';
import { esc, fill, h } from './dom.js';
import { filterForm, pager, table, valuesFrom, type Field, type Values } from './list.js';
import { navigate, showError } from './router.js';
import { offsetOf, type ViewContext } from './view.js';
import type { ListResult } from '../src/domain/ports.js';

export interface LiveListSpec<T> {
  /** The stream's event type this list shows. */
  type: StreamType;
  /** The filters: their values come from the URL's query, and the form changes them. */
  fields: Field[];
  pageSize: number;
  /** Rows kept on screen and records coalesced per frame at most (none when absent). */
  window?: number;
  /** One page of what the filters select, newest first (the filters with order, limit and offset). */
  fetchPage(params: Record<string, string | number>): Promise<ListResult<T>>;
  /** The filters as stream parameters (the server applies them to the events): all of them when absent. */
  streamQuery?(filters: Values): Record<string, string | undefined>;
  /** Replaces the rows with one page. */
  showPage(body: HTMLTableSectionElement, items: T[]): void;
  /** Shows what arrived since the last frame (oldest first); answers how many rows are new (for the total). */
  showLive(body: HTMLTableSectionElement, items: T[], filters: Values): number;
  /** "Live: …" as the status line says it. */
  liveText: string;
  /** Older pages stay live too (rows updated in place) rather than showing "not live". */
  liveOnOlderPages?: boolean;
  /** A "Pause live" button that holds new records back. */
  pausable?: boolean;
  /** The table: its caption (read by screen readers), column headings and class. */
  table: { caption: string; headings: string[]; className?: string };
  /** What to say when there is nothing at all (no filter set) instead of "Nothing matches.". */
  whenEmpty?: (filters: Values) => HTMLElement | null;
}

export interface LiveList {
  /** The pause button when the spec asked for one. */
  pause: HTMLButtonElement | null;
  /**
   * The list as the page shows it: the filter form (over `fields`, the spec's by default),
   * the "Live…" line (aria-live), the table and the pager.
   */
  elements(fields?: Field[]): HTMLElement[];
  /** Loads the page again and goes live again on the newest page. */
  reload(): Promise<void>;
}

/**
 * The attributes that make a table row open `href`: it keeps its row role (the table still reads
 * as a table, its cells as cells) and takes focus from Tab; the row's own link stays for a
 * middle click or "open in new tab".
 */
export const openableRow = (href: string) => ({ tabindex: '0', 'data-href': href });
/** The same as HTML text, for rows built as text. */
export const openableRowHtml = (href: string): string => `tabindex="0" data-href="${esc(href)}"`;

/** A click on a row's own link, button or field, or one that ends a text selection, is not "open this row". */
const isOwnControl = (target: Element) => target.closest('a, button, input, select, textarea, summary') !== null;

/** One listener for the whole body: rows come and go by the hundred on a live page. */
function openRowsOn(body: HTMLTableSectionElement): void {
  const open = (row: HTMLElement, newTab: boolean) => {
    const href = row.dataset.href;
    if (!href) return;
    if (newTab) window.open(href, '_blank', 'noopener');
    else navigate(href);
  };
  body.addEventListener('click', (event) => {
    const target = event.target as Element;
    const row = target.closest<HTMLElement>('tr[data-href]');
    if (!row || isOwnControl(target) || event.button !== 0) return;
    if (getSelection()?.toString()) return;
    open(row, event.ctrlKey || event.metaKey);
  });
  body.addEventListener('keydown', (event) => {
    const row = event.target as HTMLElement;
    if (!row.matches('tr[data-href]')) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault(); // Space would scroll the page
      open(row, event.ctrlKey || event.metaKey);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const next = event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling;
      if (next instanceof HTMLElement && next.matches('tr[data-href]')) {
        event.preventDefault();
        next.focus();
      }
    }
  });
}

export function liveList<T>(
  spec: LiveListSpec<T>,
  { main, signal, query }: Pick<ViewContext, 'main' | 'signal' | 'query'>,
): LiveList {
  const offset = offsetOf(query);
  let filters = valuesFrom(spec.fields, query);
  const body = h('tbody');
  openRowsOn(body);
  const status = h('p', { class: 'live-state', 'aria-live': 'polite' });
  const pages = h('div');
  let total = 0;
  let paused = false;
  let held = 0;
  let stream: AbortController | undefined;
  const showTotal = () => {
    const empty = total === 0 && offset === 0 ? (spec.whenEmpty?.(filters) ?? null) : null;
    fill(pages, empty ?? pager(total, offset, spec.pageSize, body.rows.length));
  };

  const batch = frameBatcher<T>((items, skipped) => {
    total += spec.showLive(body, items, filters) + skipped;
    showTotal();
  }, spec.window);
  signal.addEventListener('abort', () => {
    batch.cancel();
    stream?.abort();
  });

  const showState = (state: StreamState) => {
    if (paused) return;
    const dot = h('span', { class: state === 'live' ? 'dot live' : 'dot', 'aria-hidden': 'true' });
    if (state === 'live') fill(status, dot, spec.liveText);
    else if (state === 'reconnecting') fill(status, dot, 'Reconnecting to the live stream…');
    else fill(status, 'Not live: the stream refused these filters.');
  };

  function goLive(): void {
    stream?.abort();
    if (offset > 0 && !spec.liveOnOlderPages) {
      fill(status, 'Older page: not live. ', h('a', { href: location.pathname }, 'Back to the newest'));
      return;
    }
    const control = new AbortController();
    stream = control;
    const onEvent = (type: StreamType, data: unknown) => {
      if (type !== spec.type) return;
      if (!paused) return batch.push(data as T);
      held++;
      fill(status, `Paused: ${held} new `, h('span', { class: 'muted' }, '(resume to load them)'));
    };
    const streamQuery = spec.streamQuery?.(filters) ?? filters;
    openStream({ ...streamQuery, types: spec.type }, onEvent, control.signal, showState);
  }

  async function reload(): Promise<void> {
    const result = await spec.fetchPage({ ...filters, order: 'desc', limit: spec.pageSize, offset });
    if (signal.aborted) return;
    batch.cancel();
    total = result.total;
    spec.showPage(body, result.items);
    showTotal();
    goLive();
  }

  const reloadShowingErrors = () => void reload().catch((e: unknown) => showError(main, e));

  let pause: HTMLButtonElement | null = null;
  if (spec.pausable) {
    const button = h('button', { type: 'button', class: 'secondary', 'aria-pressed': 'false' }, 'Pause live');
    button.addEventListener('click', () => {
      paused = !paused;
      button.setAttribute('aria-pressed', String(paused));
      button.textContent = paused ? 'Resume live' : 'Pause live';
      if (paused) fill(status, 'Paused.');
      else {
        held = 0;
        reloadShowingErrors();
      }
    });
    pause = button;
  }
  const elements = (fields = spec.fields) => [
    filterForm(fields, filters, (next) => {
      filters = next;
      reloadShowingErrors();
    }),
    status,
    table(spec.table.caption, spec.table.headings, body, spec.table.className),
    pages,
  ];
  return { pause, elements, reload };
}
