/**
 * The one live list every list view uses: a page from the server (newest first, paged by links),
 * kept live on the newest page by the event stream with the same filters (the server applies
 * them), stream events rendered at most once per animation frame, and an optional pause that
 * holds new records back until the user resumes.
 */
import { frameBatcher, openStream, type StreamState, type StreamType } from './api.js';
import { fill, h } from './dom.js';
import { pager } from './list.js';
import { showError } from './router.js';
import type { ListResult } from '../src/domain/ports.js';

export interface LiveListSpec<T> {
  /** The stream's event type this list shows. */
  type: StreamType;
  pageSize: number;
  /** Rows kept on screen and records coalesced per frame at most (none when absent). */
  window?: number;
  /** One page, newest first. */
  fetchPage(offset: number): Promise<ListResult<T>>;
  /** The list's filters as stream parameters (the server applies them to the events). */
  streamQuery(): Record<string, string | undefined>;
  /** Replaces the rows with one page. */
  showPage(body: HTMLTableSectionElement, items: T[]): void;
  /** Shows what arrived since the last frame (oldest first); answers how many rows are new (for the total). */
  showLive(body: HTMLTableSectionElement, items: T[]): number;
  /** "Live: …" as the status line says it. */
  liveText: string;
  /** Older pages stay live too (rows updated in place) rather than showing "not live". */
  liveOnOlderPages?: boolean;
  /** A "Pause live" button that holds new records back. */
  pausable?: boolean;
}

export interface LiveList {
  body: HTMLTableSectionElement;
  /** The "Live…" line (aria-live). */
  status: HTMLElement;
  /** The pager. */
  pages: HTMLElement;
  /** The pause button when the spec asked for one. */
  pause: HTMLButtonElement | null;
  /** Loads the page again (after a filter change) and goes live again on the newest page. */
  reload(): Promise<void>;
}

export function liveList<T>(
  spec: LiveListSpec<T>,
  { main, signal, offset }: { main: HTMLElement; signal: AbortSignal; offset: number },
): LiveList {
  const body = h('tbody');
  const status = h('p', { class: 'live-state', 'aria-live': 'polite' });
  const pages = h('div');
  let total = 0;
  let paused = false;
  let held = 0;
  let stream: AbortController | undefined;
  const showTotal = () => fill(pages, pager(total, offset, spec.pageSize, body.rows.length));

  const batch = frameBatcher<T>((items, skipped) => {
    total += spec.showLive(body, items) + skipped;
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
    openStream({ ...spec.streamQuery(), types: spec.type }, onEvent, control.signal, showState);
  }

  async function reload(): Promise<void> {
    const result = await spec.fetchPage(offset);
    if (signal.aborted) return;
    batch.cancel();
    total = result.total;
    spec.showPage(body, result.items);
    showTotal();
    goLive();
  }

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
        void reload().catch((e: unknown) => showError(main, e));
      }
    });
    pause = button;
  }
  return { body, status, pages, pause, reload };
}
