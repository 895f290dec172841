/**
 * The web inspector's shell: the navigation, a router that reads the whole state from the URL
 * (path = view, query string = filters and page), and the admin-token prompt.
 */
import { client, EmulatorClientError, token, whenUnauthorized } from './api.js';
import { navigate, setRenderer, showError } from './router.js';
import { fill, h, submitForm } from './dom.js';
import { campaignDetail } from './views/campaign.js';
import { campaignsView } from './views/campaigns.js';
import { clockView } from './views/clock.js';
import { deliveriesView, deliveryDetail } from './views/deliveries.js';
import { overviewView } from './views/overview.js';
import { requestDetail, requestsView } from './views/requests.js';
import { resetView } from './views/reset.js';
import { scenariosView } from './views/scenarios.js';
import { templatesView } from './views/templates.js';
import type { View } from './view.js';
import { withAppIdForApp } from './app-scope.js';

const NAV: [string, string][] = [
  ['/__/', 'Deliveries'],
  ['/__/requests', 'Requests'],
  ['/__/campaigns', 'Campaigns'],
  ['/__/scenarios', 'Scenarios'],
  ['/__/clock', 'Clock'],
  ['/__/templates', 'Templates'],
  ['/__/overview', 'Overview'],
  ['/__/reset', 'Reset'],
];

const ROUTES: [RegExp, View, string][] = [
  [/^\/__\/?$/, deliveriesView, 'Deliveries'],
  [/^\/__\/deliveries\/?$/, deliveriesView, 'Deliveries'],
  [/^\/__\/deliveries\/([^/]+)$/, deliveryDetail, 'Delivery'],
  [/^\/__\/requests\/?$/, requestsView, 'Requests'],
  [/^\/__\/requests\/([^/]+)$/, requestDetail, 'Request'],
  [/^\/__\/campaigns\/?$/, campaignsView, 'Campaigns'],
  [/^\/__\/campaigns\/([^/]+)$/, campaignDetail, 'Campaign'],
  [/^\/__\/scenarios\/?$/, scenariosView, 'Scenarios'],
  [/^\/__\/clock\/?$/, clockView, 'Clock'],
  [/^\/__\/templates\/?$/, templatesView, 'Templates'],
  [/^\/__\/overview\/?$/, overviewView, 'Overview'],
  [/^\/__\/reset\/?$/, resetView, 'Reset'],
];

const main = document.getElementById('main') as HTMLElement;
const nav = document.getElementById('nav') as HTMLElement;
let current: AbortController | undefined;

function renderNav(path: string): void {
  const section = (href: string) =>
    href === '/__/' ? path === '/__/' || path.startsWith('/__/deliveries') : path.startsWith(href);
  fill(
    nav,
    h(
      'ul',
      null,
      NAV.map(([href, label]) =>
        h('li', null, h('a', { href, 'aria-current': section(href) ? 'page' : undefined }, label)),
      ),
    ),
  );
}

async function route(focus = false): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const path = location.pathname;
  const renamed = withAppIdForApp(location.search);
  if (renamed !== null) history.replaceState(history.state, '', path + renamed + location.hash);
  renderNav(path);
  const found = ROUTES.map(([re, view, title]) => [path.match(re), view, title] as const).find(([m]) => m);
  main.replaceChildren();
  if (!found) {
    document.title = 'Not found · Notification emulator';
    fill(main, h('h1', null, 'No such view'), h('p', null, h('a', { href: '/__/' }, 'Go to the deliveries')));
    return;
  }
  const [match, view, title] = found;
  document.title = `${title} · Notification emulator`;
  try {
    await view({
      main,
      params: match!.slice(1).map((p) => decodeURIComponent(p)),
      query: new URLSearchParams(location.search),
      signal: controller.signal,
    });
  } catch (error) {
    if (!controller.signal.aborted) showError(main, error);
  }
  if (focus && !controller.signal.aborted) main.querySelector('h1')?.focus({ preventScroll: false });
}

setRenderer(route);

document.addEventListener('click', (event) => {
  const link = (event.target as Element).closest?.('a');
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target || link.hasAttribute('download'))
    return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/__/')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', () => void route());
// "/" jumps to the first filter field, as in many list UIs.
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target as HTMLElement;
  if (target.closest('input, textarea, select, [contenteditable]')) return;
  const field = main.querySelector<HTMLElement>('form.filters input, form.filters select');
  if (field) {
    event.preventDefault();
    field.focus();
  }
});

// ---- admin token ----

let asking = false;
function askForToken(wrong: boolean): void {
  if (asking) return;
  asking = true;
  current?.abort();
  const input = h('input', { type: 'password', id: 'admin-token', name: 'token', autocomplete: 'off', required: true });
  const message = h(
    'p',
    { role: wrong ? 'alert' : undefined, class: wrong ? 'error' : undefined },
    wrong
      ? 'That token was refused. Check the --admin-token (or EMULATOR_ADMIN_TOKEN) the emulator was started with.'
      : 'This emulator protects its control plane with an admin token (--admin-token). ' +
          'The page keeps it for this tab only.',
  );
  const form = submitForm(
    { class: 'token' },
    async () => {
      token.set(input.value);
      asking = false;
      try {
        await client.health();
        void route(true);
      } catch (error) {
        if (!(error instanceof EmulatorClientError && error.status === 401)) showError(main, error);
      }
    },
    h('h1', { tabindex: '-1' }, 'Admin token'),
    message,
    h('label', { for: 'admin-token' }, 'Admin token'),
    input,
    h('button', { type: 'submit' }, 'Continue'),
  );
  fill(main, form);
  input.focus();
}
whenUnauthorized(() => askForToken(token.get() !== undefined));

void route();
