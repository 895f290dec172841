/**
 * A delivery's content as its user would see it: a push banner, an in-app card, other
 * channels as labelled text. Shared by the delivery detail and the template preview.
 */
import { h, type Child } from './dom.js';
import type { ChannelType } from '../src/schemas/channel-types.js';

/** A string worth showing: not empty, not a placeholder left unresolved. */
const shown = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' && !/^\{\{[^}]*\}\}$/.test(value.trim()) ? value : undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const pick = (content: Record<string, unknown>, ...keys: string[]): string | undefined => {
  for (const key of keys) {
    const value = shown(content[key]);
    if (value !== undefined) return value;
  }
  return undefined;
};

/** An action as text: a URL or deep link, or an action object's `data`/`url`. */
const actionText = (value: unknown): string | undefined =>
  isObject(value) ? pick(value, 'data', 'url', 'link', 'deeplink') : shown(value);

interface Button {
  label: string;
  action: string | undefined;
}

/**
 * The content's button: an object (`button: {label, action}`, or `text`/`url` and the like), or
 * an action given as a string beside an optional label field.
 */
function buttonOf(content: Record<string, unknown>): Button | undefined {
  for (const key of ['button', 'cta', 'action']) {
    const value = content[key];
    if (!isObject(value)) continue;
    const label = pick(value, 'label', 'text', 'title');
    const action = actionText(value.action) ?? actionText(value.url) ?? actionText(value.link) ?? actionText(value);
    if (label !== undefined || action !== undefined) return { label: label ?? 'Open', action };
  }
  const action = pick(content, 'action', 'button', 'cta', 'url', 'link', 'deeplink');
  if (action === undefined) return undefined;
  return { label: pick(content, 'buttonText', 'buttonLabel', 'actionLabel') ?? 'Open', action };
}

function image(url: string | undefined, load: boolean): Child {
  if (url === undefined) return null;
  if (load && /^(https?:|data:image\/)/i.test(url)) {
    return h('img', { class: 'media', src: url, alt: 'Notification image', loading: 'lazy', decoding: 'async' });
  }
  return h(
    'div',
    { class: 'media placeholder', role: 'img', 'aria-label': `Image: ${url}` },
    h('span', null, 'Image (not loaded in previews)'),
    h('small', null, url),
  );
}

function fields(content: unknown): Record<string, unknown> {
  if (typeof content === 'string') return { body: content };
  if (content && typeof content === 'object' && !Array.isArray(content)) return content as Record<string, unknown>;
  return { body: JSON.stringify(content) };
}

/** A name for every channel type the emulator knows (tsc refuses a type left out); others show as sent. */
const CHANNEL_NAMES: Record<ChannelType, string> = {
  push: 'Push',
  in_app: 'In-app',
  email: 'Email',
  sms: 'SMS',
  whatsapp: 'WhatsApp',
  custom: 'Custom',
};
export const channelName = (c: string): string => CHANNEL_NAMES[c as ChannelType] ?? c;

/** `load`: show images (a delivery's real content) or placeholders (generated sample URLs). */
export function renderChannel(channel: string, raw: unknown, appName: string, load = true): HTMLElement {
  const content = fields(raw);
  const title = pick(content, 'title', 'heading', 'subject');
  const body = pick(content, 'body', 'message', 'text', 'content');
  const img = pick(content, 'image', 'imageUrl', 'image_url', 'picture', 'banner', 'hero');
  const button = buttonOf(content);
  if (channel === 'push') {
    return h(
      'figure',
      { class: 'push', 'aria-label': 'Push notification' },
      h(
        'div',
        { class: 'push-head' },
        h('span', { class: 'app-icon', 'aria-hidden': 'true' }, appName.slice(0, 1).toUpperCase()),
        h('span', null, appName),
        h('span', { class: 'muted' }, 'now'),
      ),
      h(
        'div',
        { class: 'push-main' },
        h('div', null, title ? h('strong', { class: 'n-title' }, title) : null, body ? h('p', null, body) : null),
        img ? h('div', { class: 'push-thumb' }, image(img, load)) : null,
      ),
      button?.action ? h('small', { class: 'muted' }, `On tap: ${button.action}`) : null,
    );
  }
  if (channel === 'in_app') {
    return h(
      'figure',
      { class: 'inapp', 'aria-label': 'In-app message' },
      image(img, load),
      h(
        'div',
        { class: 'inapp-body' },
        title ? h('strong', { class: 'n-title' }, title) : null,
        body ? h('p', null, body) : null,
        button
          ? h(
              'span',
              { class: 'inapp-button', title: button.action },
              button.label,
              button.action ? h('small', { class: 'muted' }, ` → ${button.action}`) : null,
            )
          : null,
      ),
    );
  }
  return h(
    'figure',
    { class: 'textual', 'aria-label': `${channelName(channel)} message` },
    h(
      'dl',
      null,
      Object.entries(content).map(([k, v]) => [
        h('dt', null, k),
        h('dd', null, typeof v === 'string' ? v : JSON.stringify(v)),
      ]),
    ),
  );
}

export function renderContent(
  channels: string[],
  rendered: Record<string, unknown>,
  appName: string,
  load = true,
): HTMLElement {
  const shown = channels.length ? channels : Object.keys(rendered);
  return h(
    'div',
    { class: 'previews' },
    shown.map((channel) =>
      h(
        'section',
        { class: 'preview', 'aria-label': `${channelName(channel)} preview` },
        h('h3', null, channelName(channel)),
        rendered[channel] === undefined
          ? h('p', { class: 'muted' }, 'No content for this channel.')
          : renderChannel(channel, rendered[channel], appName, load),
      ),
    ),
  );
}
