/**
 * Reset: everything back to the start state, or one app's records, after a confirmation step.
 */
import { api } from '../api.js';
import { fill, h, submitForm } from '../dom.js';
import { showError } from '../router.js';
import type { ViewContext } from '../view.js';

export async function resetView({ main, query }: ViewContext): Promise<void> {
  const apps = await api.apps().catch(() => ({ items: [] as { appId: string }[] }));
  const input = h('input', {
    id: 'reset-app',
    name: 'appId',
    list: 'reset-apps',
    value: query.get('appId') ?? '',
    spellcheck: 'false',
  });
  const result = h('div', { 'aria-live': 'polite' });
  const confirmBox = h('div');
  /** Asks before resetting: what the reset clears, with Yes and Cancel. */
  function askToConfirm(): void {
    const appId = input.value.trim();
    const what = appId
      ? `everything of app "${appId}": its deliveries, notifications, campaigns, requests, ` +
        'runtime templates and channels'
      : 'everything: all records, runtime templates and channels, open-mode apps, ' +
        'runtime-loaded scenarios and counters, and the clock';
    const yes = h(
      'button',
      { type: 'button', class: 'danger' },
      appId ? `Yes, reset ${appId}` : 'Yes, reset everything',
    );
    const no = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
    fill(confirmBox, h('p', { role: 'alert' }, `This clears ${what}. It cannot be undone.`), yes, ' ', no);
    yes.focus();
    no.addEventListener('click', () => fill(confirmBox));
    yes.addEventListener('click', async () => {
      yes.disabled = true;
      try {
        await api.reset(appId || undefined);
        fill(confirmBox);
        fill(result, h('p', { class: 'note' }, appId ? `App "${appId}" was reset.` : 'Everything was reset.'));
      } catch (error) {
        yes.disabled = false;
        showError(result, error);
      }
    });
  }
  const form = submitForm(
    { class: 'card' },
    askToConfirm,
    h('div', { class: 'field' }, h('label', { for: 'reset-app' }, 'App (empty: every app and all state)'), input),
    h(
      'datalist',
      { id: 'reset-apps' },
      apps.items.map((a) => h('option', { value: a.appId })),
    ),
    h('button', { type: 'submit', class: 'danger' }, 'Reset…'),
    confirmBox,
  );
  main.append(
    h('h1', { tabindex: '-1' }, 'Reset'),
    h(
      'p',
      null,
      'Back to the state at start: the same as POST /__reset (?appId= for one app), ' +
        'what a test suite calls between tests.',
    ),
    form,
    result,
  );
}
