/**
 * What an empty deliveries list says: no deliveries yet, and the one command that makes one. The
 * command sends a template this emulator has (the first app's first approved template, with the
 * sample values the templates view shows), so it works whatever the fixtures are.
 */
import { api, type AppTemplates } from '../api.js';
import { copyButton, fill, h, pre } from '../dom.js';
import { sendCurl } from './templates.js';

interface FirstSend {
  command: string;
  authMode: AppTemplates['authMode'];
}

/** A send of the first app's first approved template, or null when the emulator has none to send. */
async function firstSend(): Promise<FirstSend | null> {
  const apps = await api.apps();
  // As the templates view picks: in open mode with no app yet, any app id sees the shared templates.
  const appId = apps.items[0]?.appId ?? 'my-app';
  const data = await api.templates(appId);
  const template = data.items.find((t) => t.status === 'approved');
  return template ? { command: sendCurl(appId, data.authMode, template), authMode: data.authMode } : null;
}

function howToSend(send: FirstSend | null): HTMLElement[] {
  const title = h('strong', null, 'No deliveries yet.');
  if (!send)
    return [
      h('p', null, title, ' No approved template to send: see ', h('a', { href: '/__/templates' }, 'Templates'), '.'),
    ];
  const key = send.authMode === 'strict' ? ' (strict mode: put the app’s key in $APIKEY first)' : '';
  return [
    h('p', null, title, ` Send one, it appears here at once${key}:`),
    h(
      'div',
      { class: 'title-row' },
      pre(send.command, 'A send with curl'),
      copyButton('Copy', () => send.command),
    ),
  ];
}

/**
 * The deliveries list's `whenEmpty`: each call builds the empty state, filled in when the command
 * is known (asked for once per view: a live list redraws its footer often).
 */
export function noDeliveriesYet(): () => HTMLElement {
  let known: Promise<FirstSend | null> | undefined;
  return () => {
    const box = h('div', { class: 'empty-state' }, h('p', null, h('strong', null, 'No deliveries yet.')));
    known ??= firstSend();
    known.then((send) => fill(box, howToSend(send))).catch(() => {}); // the title alone says enough
    return box;
  };
}
