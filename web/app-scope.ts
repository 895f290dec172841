/**
 * The app selector of the clock, scenarios and overview views: `?appId=A` in the URL (so a link
 * such as /__/clock?appId=A opens the view on app A; the API's own name for it) scopes the view to that app, whose own
 * clock and scenario set are then shown and changed; no app: the shared clock and global set.
 */
import { client } from './api.js';
import { h } from './dom.js';
import { navigate } from './router.js';
import type { ViewContext } from './view.js';

/** The app the view is scoped to (`?appId=`), or undefined for the shared clock and global set. */
export const scopedApp = (query: URLSearchParams): string | undefined => query.get('appId') || undefined;

/**
 * `?app=A`, the name earlier pages used, as `?appId=A`: every page reads the one name, and an
 * old link or bookmark still opens the app it names. Null when there is nothing to rename.
 */
export function withAppIdForApp(search: string): string | null {
  const query = new URLSearchParams(search);
  const app = query.get('app');
  if (app === null) return null;
  query.delete('app');
  if (!query.has('appId') && app !== '') query.set('appId', app);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** A labelled <select> of the known apps; choosing one navigates to the same view with `?appId=`. */
export function appSelector({ query, signal }: Pick<ViewContext, 'query' | 'signal'>): HTMLElement {
  const current = scopedApp(query);
  const select = h('select', { id: 'app-scope', name: 'appId' }, h('option', { value: '' }, 'Shared (no app)'));
  if (current) select.append(h('option', { value: current, selected: 'selected' }, current));
  select.addEventListener('change', () => {
    const app = select.value;
    navigate(location.pathname + (app ? `?appId=${encodeURIComponent(app)}` : ''));
  });
  void client
    .apps()
    .then((list) => {
      if (signal.aborted) return;
      for (const { appId } of list.items) if (appId !== current) select.append(h('option', { value: appId }, appId));
    })
    .catch(() => {});
  return h('p', { class: 'inline app-scope' }, h('label', { for: 'app-scope' }, 'App '), select);
}

/** Says whether the app runs on its own clock or set, or on the shared one. */
export const scopeBadge = (scope: string | undefined, own: string, shared: string): HTMLElement =>
  h(
    'span',
    { class: `badge s-${scope === 'app' ? 'own' : 'shared'}`, 'data-scope': scope ?? 'shared' },
    scope === 'app' ? own : shared,
  );
