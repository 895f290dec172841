/**
 * Requests (the journal): every API call with its status, error code and the scenario rule
 * that fired; detail with headers (keys masked by the server), query, both bodies, a
 * "copy as curl" that replays it, and (proxy mode) what the live service answered.
 */
import { api, type JournalDetail } from '../api.js';
import { badge, copyButton, fill, h, pre, shellQuote, time, type Child } from '../dom.js';
import { cell, table, type Field } from '../list.js';
import { liveList, openableRow } from '../live-list.js';
import type { ViewContext } from '../view.js';

const PAGE = 100;
const LIVE_WINDOW = 500;

const FIELDS: Field[] = [
  { name: 'appId', label: 'App' },
  { name: 'method', label: 'Method', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
  { name: 'path', label: 'Path (exact)', placeholder: '/api/notifications/send' },
  { name: 'status', label: 'Status', placeholder: '400' },
  { name: 'errorCode', label: 'Error code', placeholder: 'ERR_…' },
  { name: 'scenario', label: 'Scenario' },
  { name: 'bodyContains', label: 'Body contains' },
  { name: 'since', label: 'Since', placeholder: 'e.g. 2030-01-01T00:00:00Z' },
  { name: 'until', label: 'Until', placeholder: 'e.g. 2030-01-02T00:00:00Z' },
];

/** The path with a line-break opportunity after each slash (a segment never splits). */
const breakAfterSlashes = (path: string): Child[] => path.split(/(?<=\/)/).flatMap((part) => [part, h('wbr')]);

const statusWord = (status: number) => (status >= 500 ? 'error' : status >= 400 ? 'failed' : 'ok');

function row(e: JournalDetail): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-id': e.id, class: e.status >= 400 ? 'row-failed' : undefined, ...openableRow(`/__/requests/${e.id}`) },
    cell(h('a', { href: `/__/requests/${e.id}`, 'aria-label': `Request ${e.method} ${e.path}` }, time(e.time, true))),
    cell(h('code', null, e.method)),
    h('td', { class: 'path' }, h('code', null, breakAfterSlashes(e.path))),
    cell(h('span', { class: 'nowrap' }, e.appId ?? '—')),
    cell(badge(statusWord(e.status), `HTTP ${e.status}`), ` ${e.status}`),
    cell(e.errorCode ?? ''),
    cell(e.scenario ? [h('strong', null, e.scenario), e.rule ? h('div', { class: 'reason' }, e.rule) : null] : ''),
    cell(`${e.durationMs} ms`),
  );
}

export async function requestsView({ main, query, signal }: ViewContext): Promise<void> {
  const list = liveList<JournalDetail>(
    {
      type: 'request',
      fields: FIELDS,
      pageSize: PAGE,
      window: LIVE_WINDOW,
      fetchPage: api.requests,
      showPage: (body, items) => fill(body, items.map(row)),
      showLive(body, items) {
        const fragment = document.createDocumentFragment();
        const fresh = items.slice(-LIVE_WINDOW);
        for (let i = fresh.length - 1; i >= 0; i--) fragment.append(row(fresh[i]!));
        body.prepend(fragment);
        while (body.rows.length > LIVE_WINDOW) body.lastElementChild!.remove();
        return items.length;
      },
      liveText: 'Live: new requests appear at the top.',
      table: {
        caption: 'API requests, newest first',
        headings: ['Time (UTC)', 'Method', 'Path', 'App', 'Status', 'Error code', 'Scenario / rule', 'Duration'],
        className: 'requests',
      },
    },
    { main, signal, query },
  );
  main.append(h('h1', { tabindex: '-1' }, 'Requests'), ...list.elements());
  await list.reload();
}

/** A curl command that sends the same request again (the masked API key needs replacing). */
export function curlOf(e: JournalDetail, origin = location.origin): string {
  const parts = ['curl', '-sS', '-X', e.method, shellQuote(`${origin}${e.path}${e.query ? `?${e.query}` : ''}`)];
  for (const [name, value] of Object.entries(e.requestHeaders ?? {})) {
    // What curl sets itself or a browser/runtime added: not part of the call being replayed.
    if (/^(host|content-length|connection|accept|accept-encoding|accept-language|user-agent|sec-.*)$/.test(name))
      continue;
    parts.push('-H', shellQuote(`${name}: ${value === '***' ? `<${name}>` : value}`));
  }
  if (e.requestBody) parts.push('--data-binary', shellQuote(e.requestBody));
  return parts.join(' ');
}

function body(label: string, text: string | null | undefined, truncated: boolean | undefined): HTMLElement[] {
  let shown = text ?? '';
  try {
    if (shown && !truncated) shown = JSON.stringify(JSON.parse(shown), null, 2);
  } catch {
    /* not JSON: as sent */
  }
  return [
    h('h2', null, label, truncated ? h('span', { class: 'badge s-failed' }, ' truncated (first 64 KiB kept)') : null),
    text === null || text === undefined || text === '' ? h('p', { class: 'muted' }, 'No body.') : pre(shown, label),
  ];
}

/** Proxy mode: where the call was forwarded, what came back, and what in it breaks the OpenAPI document. */
function upstreamSection(u: NonNullable<JournalDetail['upstream']>): HTMLElement[] {
  const answered = u.status === null ? `no answer: ${u.error ?? 'failed'}` : `answered HTTP ${u.status}`;
  return [
    h('h2', null, 'Upstream (live service)'),
    h('p', null, 'Forwarded to ', h('code', { class: 'upstream-url' }, u.url), ` · ${answered} · ${u.durationMs} ms`),
    u.violations.length
      ? h(
          'div',
          { class: 'note', role: 'group', 'aria-label': 'Violations of the OpenAPI document' },
          h(
            'strong',
            null,
            `${u.violations.length} violation${u.violations.length === 1 ? '' : 's'} of the OpenAPI document`,
          ),
          h(
            'ul',
            null,
            u.violations.map((v) => h('li', null, h('code', null, v))),
          ),
        )
      : h(
          'p',
          { class: 'muted' },
          u.status === null ? 'Nothing to check.' : 'The answer matches the OpenAPI document.',
        ),
  ];
}

export async function requestDetail({ main, params }: ViewContext): Promise<void> {
  const e = await api.request(params[0]!);
  const headers = Object.entries(e.requestHeaders ?? {});
  fill(
    main,
    h('h1', { tabindex: '-1' }, `${e.method} ${e.path}`),
    h(
      'p',
      null,
      badge(statusWord(e.status), `HTTP ${e.status}`),
      ` HTTP ${e.status}`,
      e.errorCode ? ` · ${e.errorCode}` : '',
      ` · ${e.durationMs} ms · `,
      time(e.time, true),
      e.appId ? ` · app ${e.appId}` : '',
    ),
    e.rules.length
      ? h(
          'div',
          { class: 'note' },
          h('strong', null, 'Scenario rules that applied'),
          h(
            'ul',
            null,
            e.rules.map((r) => h('li', null, h('a', { href: '/__/scenarios' }, r.scenario), `: ${r.rule}`)),
          ),
        )
      : null,
    ...(e.upstream ? upstreamSection(e.upstream) : []),
    h(
      'div',
      { class: 'title-row' },
      h('h2', null, 'Replay'),
      copyButton('Copy as curl', () => curlOf(e)),
    ),
    pre(curlOf(e), 'curl command'),
    ...body('Response body', e.responseBody, e.responseBodyTruncated),
    ...body('Request body', e.requestBody, e.requestBodyTruncated),
    h('h2', null, 'Query'),
    e.query ? pre(e.query, 'Query string') : h('p', { class: 'muted' }, 'None.'),
    h('h2', null, 'Request headers'),
    headers.length
      ? table(
          'Request headers',
          ['Header', 'Value'],
          h(
            'tbody',
            null,
            headers.map(([k, v]) => h('tr', null, h('th', { scope: 'row' }, k), cell(h('code', null, v)))),
          ),
        )
      : h('p', { class: 'muted' }, 'Not recorded.'),
  );
}
