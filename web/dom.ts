/**
 * A few lines instead of a framework: h() builds real DOM elements, svg() SVG ones. Text is
 * set as text; the one place that builds HTML text (live table rows, for speed) escapes every
 * value with esc(), so rendered notification content cannot inject markup.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, unknown>;

function apply(el: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (key === 'class') {
      el.setAttribute('class', String(value));
    } else if (key === 'style' && typeof value === 'object') {
      Object.assign((el as HTMLElement).style, value);
    } else if (key === 'value' || key === 'checked' || key === 'selected' || key === 'indeterminate') {
      (el as unknown as Record<string, unknown>)[key] = value;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

export function svg(tag: string, attrs?: Attrs | null, ...children: Child[]): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** A form whose submit calls `onSubmit` rather than loading a page. */
export function submitForm(attrs: Attrs, onSubmit: () => unknown, ...children: Child[]): HTMLFormElement {
  const form = h('form', attrs, ...children);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void onSubmit();
  });
  return form;
}

/** Replaces the children of `el`. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** "2030-01-01 09:00:05" (UTC, the emulator clock's zone) inside a <time>. */
export function time(iso: string | null | undefined, withMs = false): Child {
  if (!iso) return h('span', { class: 'muted' }, '—');
  const text = iso.replace('T', ' ').replace(/(\.\d+)?Z$/, (_, ms: string | undefined) => (withMs && ms ? ms : ''));
  return h('time', { datetime: iso, title: iso }, text);
}

/** "1 h 02 min", "3 min 05 s", "12 s" */
export function duration(ms: number): string {
  const negative = ms < 0;
  let s = Math.round(Math.abs(ms) / 1000);
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const hh = Math.floor(s / 3600);
  s -= hh * 3600;
  const mm = Math.floor(s / 60);
  s -= mm * 60;
  const text = d
    ? `${d} d ${hh} h`
    : hh
      ? `${hh} h ${String(mm).padStart(2, '0')} min`
      : mm
        ? `${mm} min ${String(s).padStart(2, '0')} s`
        : `${s} s`;
  return negative ? `-${text}` : text;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text made safe to place in HTML (element content or a quoted attribute). */
export const esc = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** A clock face drawn inline: the clock glyphs are missing from Debian's default fonts (DejaVu). */
const clockIcon = (): Element =>
  svg(
    'svg',
    { class: 'icon', viewBox: '0 0 16 16', width: '1em', height: '1em' },
    svg('circle', { cx: 8, cy: 8, r: 6.5, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
    svg('path', { d: 'M8 4.2V8l2.6 1.6', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
  );

/** A status shown as a word with a symbol and a colour (never by colour alone). */
export function badge(status: string, title?: string): HTMLElement {
  const symbol: Record<string, string | (() => Element)> = {
    sent: '✓',
    failed: '✕',
    pending: '…',
    sending: '➜',
    scheduled: clockIcon,
    draft: '✎',
    approved: '✓',
    archived: '▢',
    ok: '✓',
    error: '✕',
    on: '●',
    off: '○',
  };
  const shown = symbol[status] ?? '•';
  return h(
    'span',
    { class: `badge s-${status.replace(/[^a-z0-9]/gi, '')}`, title },
    h('span', { 'aria-hidden': 'true' }, typeof shown === 'function' ? shown() : shown),
    ` ${status}`,
  );
}

/** Copies text and says so on the button for a moment. */
export function copyButton(label: string, text: () => string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary' }, label);
  button.addEventListener('click', async () => {
    const value = text();
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API refused (plain http on another host): fall back to a selection copy.
      const area = h('textarea', { class: 'offscreen', 'aria-hidden': 'true' });
      area.value = value;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    button.textContent = 'Copied ✓';
    setTimeout(() => (button.textContent = label), 1500);
  });
  return button;
}

/** `'` quoting for a POSIX shell. */
export const shellQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

export function pre(value: unknown, label?: string): HTMLElement {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return h('pre', { class: 'code', tabindex: '0', 'aria-label': label }, text);
}
