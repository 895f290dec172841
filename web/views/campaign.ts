/**
 * One campaign: its lifecycle on the emulator clock, a live progress bar, what its last CSV
 * upload left out and why, recipients with a status filter, and links to its template, its
 * deliveries and its send request.
 */
import { client, frameBatcher, openStream, type Campaign, type InspectCampaign } from '../api.js';
import { badge, fill, h, time, type Child } from '../dom.js';
import type { Recipient } from '../../src/schemas/records.js';
import { cell, pager, table } from '../list.js';
import { setQuery, showError } from '../router.js';
import { offsetOf, type ViewContext } from '../view.js';
import { progress } from './campaigns.js';

const PAGE = 50;

function timeline(c: Campaign): HTMLElement {
  const failed = c.status === 'failed';
  const steps: [string, string | null, string][] = [
    ['Created', c.createdAt, 'not yet'],
    // Only a send with scheduledAt sets it: a campaign sent at once (or still a draft) never had one.
    ['Scheduled for', c.scheduledAt, 'not scheduled'],
    ['Started', c.startedAt, 'not yet'],
    [failed ? 'Ended (failed)' : 'Completed', c.completedAt, 'not yet'],
  ];
  return h(
    'ol',
    { class: 'timeline', 'aria-label': 'Lifecycle (emulator clock, UTC)' },
    steps.map(([label, at, missing], i) =>
      h(
        'li',
        { class: !at ? 'todo' : failed && i === steps.length - 1 ? 'done failed' : 'done' },
        h('strong', null, label),
        ' ',
        at ? time(at) : h('span', { class: 'muted' }, missing),
      ),
    ),
  );
}

function templateLink(c: InspectCampaign): HTMLElement {
  if (c.templateKey === null) return h('span', null, `template ${c.templateId} (no longer exists)`);
  const href = `/__/templates?appId=${encodeURIComponent(c.appId)}&template=${encodeURIComponent(c.templateKey)}`;
  return h(
    'span',
    null,
    'template ',
    h('a', { href }, c.templateName ?? c.templateKey, ' ', h('code', null, c.templateKey)),
  );
}

/** What the last CSV upload added and left out, row by row (the first 100 reasons, as the upload answered). */
function lastUpload(c: InspectCampaign): HTMLElement | null {
  const u = c.lastUpload;
  if (!u) return null;
  const rows = plural(u.uploaded, 'recipient');
  const summary = h(
    'p',
    null,
    'Accepted ',
    time(u.at),
    `: ${rows} added, ${plural(u.skipped, 'row')} skipped.`,
    u.skipped > u.errors.length ? h('span', { class: 'muted' }, ` The first ${u.errors.length} are listed.`) : null,
  );
  return h(
    'section',
    null,
    h('h2', null, 'Last CSV upload'),
    summary,
    u.errors.length
      ? table(
          'Rows the upload skipped',
          ['Row', 'Why it was skipped'],
          h(
            'tbody',
            null,
            u.errors.map((e) => h('tr', null, h('th', { scope: 'row' }, String(e.row)), cell(e.reason))),
          ),
        )
      : null,
  );
}

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** The campaign's heading: its name and status, related links, its lifecycle and its last upload. */
function campaignHead(c: InspectCampaign): Child[] {
  return [
    h('h1', { tabindex: '-1' }, c.name),
    h('p', null, badge(c.status), ` · ${c.deliveryMode} · app ${c.appId} · `, templateLink(c), ` · id ${c.id}`),
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
    lastUpload(c),
  ];
}

/** One recipient's row: its user, status (and why it failed), delivery and variables. */
const recipientRow = (r: Recipient) =>
  h(
    'tr',
    null,
    cell(r.userId),
    cell(badge(r.status), r.failureReason ? h('div', { class: 'reason' }, r.failureReason) : null),
    cell(r.deliveryId ? h('a', { href: `/__/deliveries/${r.deliveryId}` }, 'delivery') : '—'),
    cell(h('code', null, JSON.stringify(r.variables))),
  );

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

  let view: InspectCampaign = await client.campaign(id);
  function renderHead(): void {
    fill(head, ...campaignHead(view));
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
    fill(recipients, result.items.map(recipientRow));
    fill(rpages, pager(result.total, roffset, PAGE, result.items.length));
  }

  renderHead();
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
    // Stream events carry the record; the template and the last upload come from the inspect view,
    // read again while a draft (only a draft takes uploads).
    view = { ...view, ...latest };
    renderHead();
    if (latest.status === 'draft')
      void client
        .campaign(id)
        .then((fresh) => {
          if (signal.aborted) return;
          view = fresh;
          renderHead();
        })
        .catch(() => {});
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
