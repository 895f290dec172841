/**
 * Moving between views: history entries for every view and filter change, so links, back and
 * forward work; the renderer (main.ts) reads everything back from the URL.
 */
import { EmulatorClientError } from './api.js';
import { h } from './dom.js';

let render: (focus: boolean) => Promise<void> = async () => {};
export const setRenderer = (fn: (focus: boolean) => Promise<void>) => (render = fn);

/** Moves to `url` in the page: pushes (or replaces) a history entry and renders the view. */
export function navigate(url: string, { replace = false } = {}): void {
  if (url === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  void render(!replace);
}

/** Updates the query string without rendering again (the view already shows that state). */
export function setQuery(params: Record<string, string | undefined>, { replace = false } = {}): void {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const text = q.toString();
  const url = location.pathname + (text ? `?${text}` : '');
  if (url === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
}

/** Shows an error where the view would be: what failed and what answered. */
export function showError(target: HTMLElement, error: unknown): void {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  if (error instanceof EmulatorClientError && error.status === 401) return; // the token prompt is up
  const message = error instanceof Error ? error.message : String(error);
  target.append(h('p', { class: 'error', role: 'alert' }, message));
}
