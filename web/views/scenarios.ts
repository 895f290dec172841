/**
 * Scenarios: every loaded scenario with its rules in words (the engine's own explanations),
 * an on/off switch (PUT /__scenarios/active), counters, the ones a request header activated,
 * and the files refused at load. With an app chosen (`?appId=`): the set that applies to that app
 * (its own, or the global one), its counters, and switches that change its own set.
 */
import { api, client, type ScenarioView } from '../api.js';
import { badge, fill, h, type Child } from '../dom.js';
import { cell, table } from '../list.js';
import { showError } from '../router.js';
import type { ViewContext } from '../view.js';
import { appSelector, scopeBadge, scopedApp } from '../app-scope.js';

function rules(s: ScenarioView): HTMLElement {
  return table(
    `Rules of ${s.name}`,
    ['#', 'Rule', 'Matched', 'Fired', 'Times left'],
    h(
      'tbody',
      null,
      s.rules.map((r) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, String(r.rule)),
          cell(r.explanation),
          cell(String(r.matched)),
          cell(String(r.applied)),
          cell(r.remaining === null ? 'unlimited' : String(r.remaining)),
        ),
      ),
    ),
  );
}

/** A scenario's card: its name, its on/off switch (`onToggle` is told of a click), where it came from and its rules. */
function scenarioCard(s: ScenarioView, on: boolean, onToggle: (button: HTMLButtonElement) => void): HTMLElement {
  const button = h(
    'button',
    {
      type: 'button',
      role: 'switch',
      'aria-checked': String(on),
      'data-scenario': s.name,
      class: `switch ${on ? 'on' : ''}`,
      'aria-label': `${s.name} active`,
    },
    h('span', { class: 'knob', 'aria-hidden': 'true' }),
    on ? 'On' : 'Off',
  );
  button.addEventListener('click', () => onToggle(button));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': `sc-${s.name}` },
    h('div', { class: 'title-row' }, h('h2', { id: `sc-${s.name}` }, s.name, ' ', badge(on ? 'on' : 'off')), button),
    s.description ? h('p', null, s.description) : null,
    h('p', { class: 'muted' }, `from ${s.source}`),
    rules(s),
  );
}

/** The scenarios a request header activated, and the files refused at load. */
function loadReport(data: ScenariosAnswer): Child[] {
  const header = data.headerActivated ?? [];
  const errors = data.loadErrors ?? [];
  return [
    h('h2', null, 'Activated by request header'),
    header.length
      ? header.map((s) => h('section', { class: 'card' }, h('h3', null, s.name), rules(s)))
      : h('p', { class: 'muted' }, 'No request has named a scenario in the x-emulator-scenario header.'),
    h('h2', null, 'Files refused at load'),
    errors.length
      ? h(
          'ul',
          { class: 'errors' },
          errors.map((e) =>
            h(
              'li',
              null,
              h('code', null, e.file),
              h(
                'ul',
                null,
                e.problems.map((p) => h('li', null, p)),
              ),
            ),
          ),
        )
      : h(
          'p',
          { class: 'muted' },
          data.loadErrors ? 'None: every scenario file loaded.' : 'Not reported by this emulator.',
        ),
  ];
}

type ScenariosAnswer = Awaited<ReturnType<typeof api.scenarios>>;

export async function scenariosView({ main, signal, query }: ViewContext): Promise<void> {
  const appId = scopedApp(query);
  const scenarios = appId === undefined ? client.scenarios : client.forApp(appId).scenarios;
  const scope = h('p', { class: 'muted' });
  const list = h('div');
  const extra = h('div');
  let active: string[] = [];

  async function toggle(name: string, on: boolean, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    const names = on ? [...active.filter((n) => n !== name), name] : active.filter((n) => n !== name);
    try {
      await scenarios.activate(names);
      await load();
    } catch (error) {
      button.disabled = false;
      showError(main, error);
    }
  }

  async function load(): Promise<void> {
    const data = appId === undefined ? await api.scenarios() : await scenarios.list();
    if (signal.aborted) return;
    active = data.active;
    if (appId !== undefined) {
      const own = data.scope === 'app';
      const back = h('button', { type: 'button', class: 'secondary' }, 'Back to the global set');
      back.addEventListener(
        'click',
        () =>
          void client
            .forApp(appId)
            .scenarios.useGlobal()
            .then(load, (e: unknown) => showError(main, e)),
      );
      fill(
        scope,
        scopeBadge(data.scope, 'own set', 'global set'),
        own
          ? ` Only ${appId}'s own set applies to its requests. `
          : ` ${appId} follows the global set; a switch here gives ${appId} a set of its own. `,
        own ? back : null,
      );
    }
    const focused = document.activeElement?.getAttribute('data-scenario');
    fill(
      list,
      data.scenarios.length === 0
        ? h('p', null, 'No scenario is loaded. Put scenario files in the scenarios folder or POST /__scenarios.')
        : data.scenarios.map((s) => {
            const on = data.active.includes(s.name);
            return scenarioCard(s, on, (button) => void toggle(s.name, !on, button));
          }),
    );
    if (focused) list.querySelector<HTMLElement>(`[data-scenario="${CSS.escape(focused)}"]`)?.focus();
    fill(extra, ...loadReport(data));
  }

  const resetButton = h('button', { type: 'button', class: 'secondary' }, 'Reset counters');
  resetButton.addEventListener(
    'click',
    () =>
      void scenarios
        .reset()
        .then(load)
        .catch((e: unknown) => showError(main, e)),
  );
  main.append(
    h(
      'div',
      { class: 'title-row' },
      h('h1', { tabindex: '-1' }, appId === undefined ? 'Scenarios' : `Scenarios of ${appId}`),
      resetButton,
    ),
    appSelector({ query, signal }),
    scope,
    h(
      'p',
      { class: 'muted' },
      'A switched-on scenario applies to every request; a request can also name one in the x-emulator-scenario header.',
    ),
    list,
    extra,
  );
  await load();
  // Counters move with traffic: refresh every 2 s while the view is open.
  const timer = setInterval(() => void load().catch(() => {}), 2000);
  signal.addEventListener('abort', () => clearInterval(timer));
}
