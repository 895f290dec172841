/**
 * Clock: the emulator's now and mode; advance it, set it, or go back to real time; the
 * scheduled campaigns with the time left before each starts. With an app chosen (`?appId=`):
 * that app's clock (its own, or the shared one it follows) and its scheduled campaigns.
 */
import { api, client, type Campaign } from '../api.js';
import { duration, fill, h, submitForm, time } from '../dom.js';
import { cell, table } from '../list.js';
import { showError } from '../router.js';
import type { ViewContext } from '../view.js';
import { appSelector, scopeBadge, scopedApp } from '../app-scope.js';

/** A scheduled campaign's row: its name, app, start and the time left before it. */
const scheduledRow = (c: Campaign, nowMs: number) =>
  h(
    'tr',
    null,
    cell(h('a', { href: `/__/campaigns/${c.id}` }, c.name)),
    cell(c.appId),
    cell(time(c.scheduledAt)),
    cell(c.scheduledAt ? duration(Date.parse(c.scheduledAt) - nowMs) : '—'),
  );

export async function clockView({ main, signal, query }: ViewContext): Promise<void> {
  const appId = scopedApp(query);
  const clock = appId === undefined ? client.clock : client.forApp(appId).clock;
  const now = h('p', { class: 'big', 'aria-live': 'polite' });
  const scope = h('p', { class: 'muted' });
  const scheduled = h('tbody');
  const input = h('input', { id: 'clock-at', type: 'text', placeholder: '2030-01-01T09:00:00Z', spellcheck: 'false' });
  let state = { now: '', mode: 'real' as string, readAt: performance.now() };

  const nowMs = () => Date.parse(state.now) + (state.mode === 'real' ? performance.now() - state.readAt : 0);

  function renderNow(): void {
    fill(
      now,
      time(new Date(nowMs()).toISOString()),
      ' ',
      h('span', { class: `badge s-${state.mode}` }, state.mode === 'real' ? 'real time' : 'manual (frozen)'),
    );
  }

  async function load(): Promise<void> {
    const [read, campaigns] = await Promise.all([
      clock.get(),
      api.campaigns({ status: 'scheduled', limit: 200, appId }),
    ]);
    if (signal.aborted) return;
    state = { now: read.now, mode: read.mode, readAt: performance.now() };
    if (!input.value) input.value = read.now;
    renderNow();
    if (appId !== undefined) {
      const own = read.scope === 'app';
      fill(
        scope,
        scopeBadge(read.scope, 'own clock', 'shared clock'),
        own
          ? ` ${appId} runs on a clock of its own. `
          : ` ${appId} follows the shared clock; moving it here gives ${appId} a clock of its own. `,
        own ? button('Back to the shared clock', () => client.forApp(appId).clock.useShared(), 'secondary') : null,
      );
    }
    const items = [...campaigns.items].sort((a, b) => (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? ''));
    fill(
      scheduled,
      items.length
        ? items.map((c) => scheduledRow(c, nowMs()))
        : h('tr', null, h('td', { colspan: '4', class: 'muted' }, 'No campaign is scheduled.')),
    );
  }

  const act = (fn: () => Promise<unknown>) => async () => {
    try {
      await fn();
      await load();
    } catch (error) {
      showError(main, error);
    }
  };
  const button = (label: string, fn: () => Promise<unknown>, cls = '') => {
    const b = h('button', { type: 'button', class: cls }, label);
    b.addEventListener('click', act(fn));
    return b;
  };
  const form = submitForm(
    { class: 'inline' },
    act(() => clock.set(input.value.trim())),
    h('label', { for: 'clock-at' }, 'Set to (ISO instant)'),
    input,
    h('button', { type: 'submit' }, 'Set clock'),
  );

  main.append(
    h('h1', { tabindex: '-1' }, appId === undefined ? 'Clock' : `Clock of ${appId}`),
    appSelector({ query, signal }),
    now,
    scope,
    h(
      'div',
      { class: 'buttons', role: 'group', 'aria-label': 'Advance the clock' },
      button('+1 minute', () => clock.advance(60_000)),
      button('+1 hour', () => clock.advance(3_600_000)),
      button('+1 day', () => clock.advance(86_400_000)),
      button('Back to real time', () => clock.real(), 'secondary'),
    ),
    form,
    h('p', { class: 'muted' }, 'Moving the clock past a campaign’s scheduled time starts it at once.'),
    h('h2', null, 'Scheduled campaigns'),
    table('Scheduled campaigns', ['Campaign', 'App', 'Starts at (UTC)', 'Time left'], scheduled),
  );
  await load();
  const timer = setInterval(() => {
    if (state.mode === 'real') renderNow();
  }, 1000);
  const refresh = setInterval(() => void load().catch(() => {}), 5000);
  signal.addEventListener('abort', () => {
    clearInterval(timer);
    clearInterval(refresh);
  });
}
