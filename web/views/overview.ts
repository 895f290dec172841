/**
 * Overview: /__health in words and a chart of deliveries per minute by status over the last
 * hour (GET /__inspect/delivery-stats), with the same numbers as a table for screen readers;
 * the trace the state came from and a button to download one (download-trace.ts).
 */
import { api, client, type DeliveryStats } from '../api.js';
import { badge, duration, fill, h, svg, time, type Child } from '../dom.js';
import { cell, table } from '../list.js';
import type { ViewContext } from '../view.js';
import { appSelector, scopeBadge, scopedApp } from '../app-scope.js';
import { downloadTraceControl, traceOriginFacts } from './download-trace.js';

/**
 * Drawn at `width` CSS pixels (the box it goes in), so it fills the width and its labels keep
 * their size; the left margin fits the longest count ("200,000").
 */
function chart(stats: DeliveryStats, width: number): Element {
  const W = Math.max(320, Math.round(width));
  const H = 200;
  const max = Math.max(1, ...stats.buckets.map((b) => b.sent + b.failed));
  const pad = { left: 14 + 7 * max.toLocaleString('en').length, bottom: 22, top: 10 };
  const bw = (W - pad.left) / Math.max(1, stats.buckets.length);
  const y = (n: number) => ((H - pad.bottom - pad.top) * n) / max;
  const bars = stats.buckets.flatMap((b, i) => {
    const x = pad.left + i * bw;
    const hs = y(b.sent);
    const hf = y(b.failed);
    const base = H - pad.bottom;
    const label = `${b.start.slice(11, 16)} UTC: ${b.sent} sent, ${b.failed} failed`;
    return [
      svg(
        'rect',
        { x, y: base - hs, width: Math.max(1, bw - 1), height: hs, class: 'c-sent' },
        svg('title', null, label),
      ),
      svg(
        'rect',
        { x, y: base - hs - hf, width: Math.max(1, bw - 1), height: hf, class: 'c-failed' },
        svg('title', null, label),
      ),
    ];
  });
  const ticks = [0, Math.round(max / 2), max].map((v) =>
    svg(
      'text',
      { x: pad.left - 6, y: H - pad.bottom - y(v) + 4, 'text-anchor': 'end', class: 'tick' },
      v.toLocaleString('en'),
    ),
  );
  const times = [0, Math.floor(stats.buckets.length / 2), stats.buckets.length - 1]
    .filter((i) => stats.buckets[i])
    .map((i) =>
      svg(
        'text',
        {
          x: pad.left + i * bw,
          y: H - 6,
          class: 'tick',
          'text-anchor': i === 0 ? 'start' : i === stats.buckets.length - 1 ? 'end' : 'middle',
        },
        stats.buckets[i]!.start.slice(11, 16),
      ),
    );
  return svg(
    'svg',
    {
      viewBox: `0 0 ${W} ${H}`,
      class: 'chart',
      role: 'img',
      'aria-label': `Deliveries per minute, last hour: ${stats.totals.sent} sent, ${stats.totals.failed} failed`,
    },
    svg('line', { x1: pad.left, x2: W, y1: H - pad.bottom, y2: H - pad.bottom, class: 'axis' }),
    ticks,
    times,
    bars,
  );
}

const count = (n: unknown): string => Number(n ?? 0).toLocaleString('en');
const mib = (bytes: number): string => `${Math.round(bytes / 1024 / 1024).toLocaleString('en')} MiB`;
/** RSS, and the heap in use against its limit (the emulator warns in its log past 80%). */
const memoryLine = (m: { rssBytes: number; heapUsedBytes: number; heapLimitBytes: number }): string =>
  `${mib(m.rssBytes)} RSS, heap ${mib(m.heapUsedBytes)} of ${mib(m.heapLimitBytes)} ` +
  `(${Math.round((100 * m.heapUsedBytes) / m.heapLimitBytes)}%)`;

/** The deliveries of the last hour: the totals, the chart and the same numbers as a table. */
function statsParts(st: DeliveryStats, width: number): Child[] {
  return [
    h(
      'p',
      null,
      h('span', { class: 'key c-sent-key' }, '■ sent'),
      ` ${st.totals.sent.toLocaleString('en')}  `,
      h('span', { class: 'key c-failed-key' }, '■ failed'),
      ` ${st.totals.failed.toLocaleString('en')}`,
      h('span', { class: 'muted' }, ` · emulator clock, until `, time(st.until)),
    ),
    chart(st, width),
    h(
      'details',
      null,
      h('summary', null, 'The numbers as a table'),
      table(
        'Deliveries per minute',
        ['Minute (UTC)', 'Sent', 'Failed'],
        h(
          'tbody',
          null,
          st.buckets
            .filter((b) => b.sent + b.failed > 0)
            .map((b) =>
              h(
                'tr',
                null,
                h('th', { scope: 'row' }, b.start.slice(0, 16).replace('T', ' ')),
                cell(String(b.sent)),
                cell(String(b.failed)),
              ),
            ),
        ),
      ),
    ),
  ];
}

export async function overviewView({ main, signal, query }: ViewContext): Promise<void> {
  const appId = scopedApp(query);
  const health = h('div');
  const stats = h('div');
  main.append(
    h('h1', { tabindex: '-1' }, appId === undefined ? 'Overview' : `Overview of ${appId}`),
    appSelector({ query, signal }),
    downloadTraceControl(appId),
    health,
    h('h2', null, 'Deliveries per minute, last hour'),
    stats,
  );

  async function load(): Promise<void> {
    const mine = appId === undefined ? undefined : client.forApp(appId);
    const [hl, st, clock, scenarios] = await Promise.all([
      client.health(),
      appId === undefined ? api.stats() : client.deliveryStats({ appId }),
      mine?.clock.get(),
      mine?.scenarios.list(),
    ]);
    if (signal.aborted) return;
    // An app's own clock and set, or the shared ones it follows.
    const appFacts: [string, unknown][] =
      clock && scenarios
        ? [
            ['App', appId],
            [
              'Its active scenarios',
              [
                scenarios.active.length ? scenarios.active.join(', ') : 'none',
                ' ',
                scopeBadge(scenarios.scope, 'own set', 'global set'),
              ],
            ],
            ['Its clock', [time(clock.now), ` (${clock.mode}) `, scopeBadge(clock.scope, 'own clock', 'shared clock')]],
          ]
        : [];
    const facts: [string, unknown][] = [
      ...traceOriginFacts(hl.trace),
      ['Status', badge(hl.status)],
      ['Version', hl.version],
      ['Uptime', duration(hl.uptimeMs)],
      ['Auth mode', hl.auth === 'open' ? 'open (any appid/apikey)' : 'strict (configured apps only)'],
      ['Apps', String(hl.apps)],
      ['Templates', String(hl.templates)],
      ['Deliveries stored', Number(hl.deliveries ?? 0).toLocaleString('en')],
      ['Dropped by the cap', `${count(hl.droppedDeliveries)} (cap ${count(hl.maxDeliveries)})`],
      ['Memory', memoryLine(hl.memory)],
      ...appFacts,
      ['Active scenarios (global)', hl.activeScenarios.length ? hl.activeScenarios.join(', ') : 'none'],
      [
        'Clock',
        [
          time((hl.clock as { now?: string } | undefined)?.now),
          ` (${(hl.clock as { mode?: string } | undefined)?.mode ?? ''})`,
        ],
      ],
    ];
    fill(
      health,
      h(
        'dl',
        { class: 'facts' },
        facts.map(([k, v]) => [h('dt', null, k), h('dd', null, v as never)]),
      ),
    );
    fill(stats, ...statsParts(st, stats.clientWidth));
  }
  await load();
  const timer = setInterval(() => void load().catch(() => {}), 5000);
  signal.addEventListener('abort', () => clearInterval(timer));
}
