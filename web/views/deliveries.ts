/**
 * Deliveries (the home view): newest first from GET /__inspect/deliveries?order=desc, kept live
 * by the stream on the first page (one render per animation frame, at most LIVE_WINDOW rows),
 * and one delivery's detail: its content as the user sees it, variables, raw record.
 */
import { api, type Delivery } from '../api.js';
import { badge, copyButton, esc, fill, h, pre, time } from '../dom.js';
import { cell, datalist, table, type Field } from '../list.js';
import { liveList, openableRowHtml } from '../live-list.js';
import { renderContent } from '../render.js';
import { noDeliveriesYet } from './first-send.js';
import { noRecordsForApp } from './app-without-records.js';
import type { ViewContext } from '../view.js';

const PAGE = 100;
export const LIVE_WINDOW = 500;

/** The channel filter's options come from GET /__apps (channelTypes). */
const FIELDS: Field[] = [
  { name: 'appId', label: 'App', list: 'apps' },
  { name: 'userId', label: 'User' },
  { name: 'templateKey', label: 'Template key' },
  { name: 'templateId', label: 'Template id' },
  { name: 'campaignId', label: 'Campaign id' },
  { name: 'notificationId', label: 'Notification id' },
  { name: 'channel', label: 'Channel' },
  { name: 'mode', label: 'Mode', options: ['realtime', 'batch'] },
  { name: 'status', label: 'Status', options: ['sent', 'failed'] },
  { name: 'tag', label: 'Tag' },
  { name: 'since', label: 'Since', placeholder: 'e.g. 2030-01-01T00:00:00Z' },
  { name: 'until', label: 'Until', placeholder: 'e.g. 2030-01-02T00:00:00Z' },
];

const SYMBOL: Record<string, string> = { sent: '✓', failed: '✕' };

/** A row as HTML text (every value escaped): hundreds of rows a frame parse far faster than built node by node. */
function rowHtml(d: Delivery): string {
  const at = d.createdAt.replace('T', ' ').replace(/Z$/, '');
  const source = d.campaignId
    ? `<a href="/__/campaigns/${esc(d.campaignId)}">campaign ${esc(d.campaignId.slice(-6))}</a>`
    : d.notificationId
      ? `<a href="/__/?notificationId=${esc(d.notificationId)}">notif …${esc(d.notificationId.slice(-6))}</a>`
      : '<span class="muted">—</span>';
  const reason = d.failureReason ? `<div class="reason">${esc(d.failureReason)}</div>` : '';
  return (
    `<tr data-id="${esc(d.id)}" ${openableRowHtml(`/__/deliveries/${d.id}`)}` +
    `${d.status === 'failed' ? ' class="row-failed"' : ''}>` +
    `<td><a href="/__/deliveries/${esc(d.id)}" aria-label="Delivery ${esc(d.id)}">` +
    `<time datetime="${esc(d.createdAt)}">${esc(at)}</time></a></td>` +
    `<td>${esc(d.appId)}</td><td>${esc(d.userId)}</td><td>${esc(d.templateKey)}</td>` +
    `<td>${esc(d.channels.join(', '))}</td><td>${esc(d.mode)}</td>` +
    `<td><span class="badge s-${esc(d.status)}"><span aria-hidden="true">${SYMBOL[d.status] ?? '•'}</span> ` +
    `${esc(d.status)}</span>${reason}</td><td>${source}</td></tr>`
  );
}

/** Live rows arrive as HTML text (rowHtml): the oldest past the window leave in one operation. */
function prependLive(body: HTMLTableSectionElement, items: Delivery[]): number {
  const started = performance.now();
  const fresh = items.slice(-LIVE_WINDOW);
  let html = '';
  for (let i = fresh.length - 1; i >= 0; i--) html += rowHtml(fresh[i]!);
  if (fresh.length >= LIVE_WINDOW) body.innerHTML = html;
  else {
    body.insertAdjacentHTML('afterbegin', html);
    const firstExtra = body.rows[LIVE_WINDOW];
    if (firstExtra) {
      const range = document.createRange();
      range.setStartBefore(firstExtra);
      range.setEndAfter(body.lastElementChild!);
      range.deleteContents();
    }
  }
  // Visible in the browser's performance panel (and read by the scale test).
  performance.measure('deliveries:live-render', { start: started });
  return items.length;
}

export async function deliveriesView({ main, query, signal }: ViewContext): Promise<void> {
  const emptyStore = noDeliveriesYet();
  const emptyApp = noRecordsForApp();
  const list = liveList<Delivery>(
    {
      type: 'delivery',
      fields: FIELDS,
      pageSize: PAGE,
      window: LIVE_WINDOW,
      fetchPage: api.deliveries,
      showPage(body, items) {
        body.innerHTML = items.map(rowHtml).join('');
        if (performance.getEntriesByName('deliveries:first-page').length === 0)
          performance.mark('deliveries:first-page');
      },
      showLive: prependLive,
      liveText: 'Live: new deliveries appear at the top.',
      pausable: true,
      table: {
        caption: 'Deliveries, newest first',
        headings: ['Time (UTC)', 'App', 'User', 'Template', 'Channels', 'Mode', 'Status', 'Campaign / notification'],
        className: 'fixed deliveries',
      },
      whenEmpty: (filters) => {
        const given = Object.entries(filters).filter(([, v]) => v !== '');
        if (given.length === 0) return emptyStore();
        // The app alone and nothing of it: the app has no records, said so (other filters: the usual "none match").
        return given.length === 1 && filters.appId ? emptyApp(filters.appId) : null;
      },
    },
    { main, signal, query },
  );
  // The first page and the app list (for the app and channel fields) load side by side.
  const loading = list.reload();
  loading.catch(() => {}); // awaited below, where the router shows the error
  const known = await api.apps().catch(() => null);
  if (signal.aborted) return;
  const apps = datalist(
    'apps',
    (known?.items ?? []).map((a) => a.appId),
  );
  const fields = FIELDS.map((f) => (f.name === 'channel' ? { ...f, options: known?.channelTypes } : f));
  main.append(
    h('div', { class: 'title-row' }, h('h1', { tabindex: '-1' }, 'Deliveries'), list.pause),
    ...list.elements(fields),
    apps,
  );
  await loading;
}

/** Links from a delivery to its send's other deliveries, its campaign, and the request behind it. */
function relatedLinks(d: Awaited<ReturnType<typeof api.delivery>>): HTMLElement[] {
  const links: HTMLElement[] = [];
  if (d.notificationId) {
    links.push(
      h('a', { href: `/__/?notificationId=${encodeURIComponent(d.notificationId)}` }, 'All deliveries of this send'),
      h(
        'a',
        { href: `/__/requests?bodyContains=${encodeURIComponent(d.notificationId)}` },
        'The request that caused it',
      ),
    );
  }
  if (d.campaignId) {
    links.push(
      h('a', { href: `/__/campaigns/${encodeURIComponent(d.campaignId)}` }, 'Its campaign'),
      h(
        'a',
        { href: `/__/requests?path=${encodeURIComponent(`/api/campaigns/${d.campaignId}/send`)}` },
        'The request that sent the campaign',
      ),
    );
  }
  return links;
}

export async function deliveryDetail({ main, params }: ViewContext): Promise<void> {
  const d = await api.delivery(params[0]!);
  const links = relatedLinks(d);
  const facts: [string, unknown][] = [
    ['Status', [badge(d.status), d.failureReason ? ` ${d.failureReason}` : '']],
    ['Scenario', d.scenario ?? '—'],
    ['Time (UTC)', time(d.createdAt, true)],
    ['App', d.appId],
    ['User', d.userId],
    [
      'Template',
      h(
        'a',
        { href: `/__/templates?appId=${encodeURIComponent(d.appId)}&template=${encodeURIComponent(d.templateKey)}` },
        d.templateKey,
      ),
    ],
    ['Mode', d.mode],
    ['Channels', d.channels.join(', ') || '—'],
    ['Title', d.title ?? '—'],
    ['Tag', d.tag ?? '—'],
  ];
  const variables = Object.entries(d.variables);
  fill(
    main,
    h('h1', { tabindex: '-1' }, `Delivery to ${d.userId}`),
    h('p', { class: 'muted' }, `id ${d.id}`),
    h('nav', { class: 'links', 'aria-label': 'Related' }, links),
    h(
      'div',
      { class: 'detail-grid' },
      h(
        'section',
        null,
        h('h2', null, 'As the user sees it'),
        d.status === 'failed'
          ? h(
              'p',
              { class: 'error' },
              `Not delivered: ${d.failureReason ?? 'failed'}. This is what it would have shown.`,
            )
          : null,
        renderContent(d.channels, d.rendered, d.appId),
      ),
      h(
        'section',
        null,
        h('h2', null, 'Summary'),
        h(
          'dl',
          { class: 'facts' },
          facts.map(([k, v]) => [h('dt', null, k), h('dd', null, v as never)]),
        ),
        h('h2', null, 'Variables'),
        variables.length
          ? table(
              'Variables given',
              ['Variable', 'Value'],
              h(
                'tbody',
                null,
                variables.map(([k, v]) =>
                  h(
                    'tr',
                    null,
                    h('th', { scope: 'row' }, k),
                    cell(h('code', null, typeof v === 'string' ? v : JSON.stringify(v))),
                  ),
                ),
              ),
            )
          : h('p', { class: 'muted' }, 'None.'),
        d.pushData ? [h('h2', null, 'Push data'), pre(d.pushData, 'Push data')] : null,
      ),
    ),
    h(
      'section',
      null,
      h(
        'div',
        { class: 'title-row' },
        h('h2', null, 'Raw record'),
        copyButton('Copy JSON', () => JSON.stringify(d, null, 2)),
      ),
      pre(d, 'Raw delivery record'),
    ),
  );
}
