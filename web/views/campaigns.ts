/**
 * Campaigns: status and a live progress bar (sent / failed / pending) from the stream's
 * campaign events; a row opens the campaign (campaign.ts).
 */
import { api, type Campaign } from '../api.js';
import { badge, fill, h, time } from '../dom.js';
import { cell, type Field } from '../list.js';
import { liveList, openableRow } from '../live-list.js';
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
    { 'data-id': c.id, ...openableRow(`/__/campaigns/${c.id}`) },
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
