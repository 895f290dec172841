/**
 * A delivery's content as its user would see it: a push banner, an in-app card, other
 * channels as labelled text. Shared by the delivery detail and the template preview.
 */
import { h, type Child } from './dom.js';
import type { ChannelType } from '../src/schemas/channel-types.js';

const pick = (content: Record<string, unknown>, ...keys: string[]): string | undefined => {
  for (const key of keys) {
    const value = content[key];
    if (typeof value === 'string' && value.trim() !== '' && !/^\{\{[^}]*\}\}$/.test(value.trim())) return value;
  }
  return undefined;
};

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
  const action = pick(content, 'action', 'button', 'cta', 'url', 'link', 'deeplink');
  const label = pick(content, 'buttonText', 'buttonLabel', 'actionLabel') ?? 'Open';
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
      action ? h('small', { class: 'muted' }, `On tap: ${action}`) : null,
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
        action
          ? h('span', { class: 'inapp-button', title: action }, label, h('small', { class: 'muted' }, ` → ${action}`))
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
