/**
 * Campaigns: status and a live progress bar (sent / failed / pending) from the stream's
 * campaign events; detail with the lifecycle timeline on the emulator clock, recipients with
 * a status filter, and links to the campaign's deliveries and send request.
 */
import { api, client, frameBatcher, openStream, type Campaign } from '../api.js';
import { badge, fill, h, time } from '../dom.js';
import { cell, pager, table, type Field } from '../list.js';
import { liveList } from '../live-list.js';
import { setQuery, showError } from '../router.js';
import { offsetOf, type ViewContext } from '../view.js';

const PAGE = 50;
const FIELDS: Field[] = [
  { name: 'appId', label: 'App' },
  { name: 'status', label: 'Status', options: ['draft', 'scheduled', 'sending', 'sent', 'failed'] },
];

export function progress(c: Campaign): HTMLElement {
  const total = c.recipientCount;
  const pending = Math.max(0, total - c.sentCount - c.failedCount);
  const done = total === 0 ? 0 : Math.floor(((c.sentCount + c.failedCount) / total) * 100);
  const share = (n: number) => `${total === 0 ? 0 : (n / total) * 100}%`;
  const text = `${done} % · ${c.sentCount} sent, ${c.failedCount} failed, ${pending} pending of ${total}`;
  return h(
    'div',
    { class: 'progress' },
    h(
      'div',
      {
        class: 'bar',
        role: 'progressbar',
        'aria-valuemin': '0',
        'aria-valuemax': '100',
        'aria-valuenow': String(done),
        'aria-valuetext': text,
        'aria-label': `Progress of ${c.name}`,
      },
      h('span', { class: 'seg sent', style: { width: share(c.sentCount) } }),
      h('span', { class: 'seg failed', style: { width: share(c.failedCount) } }),
    ),
    h('span', { class: 'progress-text' }, text),
  );
}

function row(c: Campaign): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-id': c.id },
    cell(h('a', { href: `/__/campaigns/${c.id}` }, c.name)),
    cell(c.appId),
    cell(badge(c.status)),
    cell(c.deliveryMode),
    cell(progress(c)),
    cell(time(c.scheduledAt)),
    cell(time(c.createdAt)),
  );
}

export async function campaignsView({ main, query, signal }: ViewContext): Promise<void> {
  const offset = offsetOf(query);
  const list = liveList<Campaign>(
    {
      type: 'campaign',
      fields: FIELDS,
      pageSize: PAGE,
      fetchPage: api.campaigns,
      // The status filter stays in the page: a campaign leaves the list when its status moves on.
      streamQuery: (filters) => ({ appId: filters.appId }),
      showPage: (body, items) => fill(body, items.map(row)),
      showLive(body, items, filters) {
        let added = 0;
        for (const c of new Map(items.map((c) => [c.id, c])).values()) {
          const existing = body.querySelector(`tr[data-id="${CSS.escape(c.id)}"]`);
          if (filters.status && c.status !== filters.status) existing?.remove();
          else if (existing) existing.replaceWith(row(c));
          else if (offset === 0) {
            body.prepend(row(c));
            added++;
          }
        }
        return added;
      },
      liveText: 'Live: campaigns update as they change.',
      liveOnOlderPages: true,
      table: {
        caption: 'Campaigns, newest first',
        headings: ['Name', 'App', 'Status', 'Mode', 'Progress', 'Scheduled (UTC)', 'Created'],
      },
    },
    { main, signal, query },
  );
  main.append(h('h1', { tabindex: '-1' }, 'Campaigns'), ...list.elements());
  await list.reload();
}

function timeline(c: Campaign): HTMLElement {
  const steps: [string, string | null][] = [
    ['Created', c.createdAt],
    ['Scheduled for', c.scheduledAt],
    ['Started', c.startedAt],
    [c.status === 'failed' ? 'Ended (failed)' : 'Completed', c.completedAt],
  ];
  return h(
    'ol',
    { class: 'timeline', 'aria-label': 'Lifecycle (emulator clock, UTC)' },
    steps.map(([label, at]) =>
      h(
        'li',
        { class: at ? 'done' : 'todo' },
        h('strong', null, label),
        ' ',
        at ? time(at) : h('span', { class: 'muted' }, 'not yet'),
      ),
    ),
  );
}

export async function campaignDetail({ main, params, query, signal }: ViewContext): Promise<void> {
  const id = params[0]!;
  let recipientStatus = query.get('recipients') ?? '';
  const roffset = offsetOf(query);
  const head = h('div');
  const recipients = h('tbody');
  const rpages = h('div');
  const select = h(
    'select',
    { id: 'recipient-status' },
    ['', 'pending', 'sent', 'failed'].map((s) =>
      h('option', { value: s, selected: s === recipientStatus }, s || 'any'),
    ),
  );

  function renderHead(c: Campaign): void {
    fill(
      head,
      h('h1', { tabindex: '-1' }, c.name),
      h(
        'p',
        null,
        badge(c.status),
        ` · ${c.deliveryMode} · app ${c.appId}`,
        ` · template ${c.templateId} · id ${c.id}`,
      ),
      progress(c),
      h(
        'nav',
        { class: 'links', 'aria-label': 'Related' },
        h('a', { href: `/__/?campaignId=${encodeURIComponent(c.id)}` }, 'Deliveries of this campaign'),
        h('a', { href: `/__/requests?path=${encodeURIComponent(`/api/campaigns/${c.id}/send`)}` }, 'Its send request'),
        c.status === 'scheduled' ? h('a', { href: '/__/clock' }, 'Move the clock') : null,
      ),
      h('h2', null, 'Lifecycle'),
      timeline(c),
    );
  }

  let lastRecipients = 0;
  async function loadRecipients(): Promise<void> {
    lastRecipients = performance.now();
    const result = await client.campaignRecipients(id, {
      status: recipientStatus || undefined,
      limit: PAGE,
      offset: roffset,
    });
    if (signal.aborted) return;
    fill(
      recipients,
      result.items.map((r) =>
        h(
          'tr',
          null,
          cell(r.userId),
          cell(badge(r.status), r.failureReason ? h('div', { class: 'reason' }, r.failureReason) : null),
          cell(r.deliveryId ? h('a', { href: `/__/deliveries/${r.deliveryId}` }, 'delivery') : '—'),
          cell(h('code', null, JSON.stringify(r.variables))),
        ),
      ),
    );
    fill(rpages, pager(result.total, roffset, PAGE, result.items.length));
  }

  const campaign = await client.campaign(id);
  renderHead(campaign);
  select.addEventListener('change', () => {
    recipientStatus = select.value;
    setQuery({ recipients: recipientStatus || undefined });
    void loadRecipients().catch((e: unknown) => showError(main, e));
  });
  main.append(
    head,
    h(
      'section',
      null,
      h('h2', null, 'Recipients'),
      h(
        'div',
        { class: 'filters' },
        h('div', { class: 'field' }, h('label', { for: 'recipient-status' }, 'Status'), select),
      ),
      table('Recipients', ['User', 'Status', 'Delivery', 'Variables'], recipients),
      rpages,
    ),
  );
  const batch = frameBatcher<Campaign>((items) => {
    const latest = items[items.length - 1]!;
    renderHead(latest);
    const finished = latest.status === 'sent' || latest.status === 'failed';
    if (finished || performance.now() - lastRecipients > 1000) void loadRecipients().catch(() => {});
  });
  signal.addEventListener('abort', () => batch.cancel());
  openStream(
    { types: 'campaign', campaignId: id },
    (type, data) => type === 'campaign' && (data as Campaign).id === id && batch.push(data as Campaign),
    signal,
  );
  await loadRecipients();
}
