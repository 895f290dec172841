/**
 * What the shell (main.ts) gives every view: where to render, the URL's state, and a signal
 * for when the page leaves. Its own module so that views never import their parent.
 */
export interface ViewContext {
  main: HTMLElement;
  params: string[];
  query: URLSearchParams;
  /** Aborted when the page leaves this view: streams and timers stop. */
  signal: AbortSignal;
}

export type View = (ctx: ViewContext) => void | Promise<void>;

/** The page number in the query string (`offset`), 0 when absent or not a number. */
export const offsetOf = (query: URLSearchParams): number => Math.max(0, Number(query.get('offset')) || 0);
