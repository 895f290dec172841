/**
 * The deliveries list filtered to an app that has none (or no records at all): said in words, with the apps the
 * emulator knows (each a link to its deliveries), rather than an empty table that looks like
 * a filter that went wrong, or every app's records.
 */
import { api } from '../api.js';
import { fill, h } from '../dom.js';

/** A `whenEmpty` for the app filter: the known apps are asked for once per view, as the footer redraws often. */
export function noRecordsForApp(): (appId: string) => HTMLElement {
  let known: Promise<string[]> | undefined;
  return (appId) => {
    const words = h('strong', null, `No deliveries for app ${appId}.`);
    const title = h('p', null, words);
    const box = h('div', { class: 'empty-state', 'data-empty': 'app' }, title);
    known ??= api.apps().then((list) => list.items.map((a) => a.appId));
    known
      .then((apps) => {
        if (!apps.includes(appId)) words.textContent = `No records for app ${appId}.`;
        const others = apps.filter((a) => a !== appId);
        const links = others.flatMap((a, i) => [
          i ? ', ' : '',
          h('a', { href: `/__/?appId=${encodeURIComponent(a)}` }, a),
        ]);
        fill(
          box,
          title,
          others.length
            ? h('p', null, 'Known apps: ', ...links, ' (', h('a', { href: '/__apps' }, '/__apps'), ').')
            : h('p', null, 'No app has records yet (', h('a', { href: '/__apps' }, '/__apps'), ').'),
        );
      })
      .catch(() => {}); // the title alone says enough
    return box;
  };
}
