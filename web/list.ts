/**
 * Pieces every list view shares: a filter form whose values live in the query string, a
 * pager of links (so a page is a URL too), and a table with real headers.
 */
import { h, submitForm, type Child } from './dom.js';
import { setQuery } from './router.js';

export interface Field {
  name: string;
  label: string;
  options?: readonly string[];
  placeholder?: string;
  /** id of a <datalist> to suggest values from */
  list?: string;
}

export type Values = Record<string, string>;

export const valuesFrom = (fields: Field[], query: URLSearchParams): Values =>
  Object.fromEntries(fields.map((f) => [f.name, query.get(f.name) ?? '']));

/**
 * The form calls `onChange` 300 ms after typing stops (or at once for a select or Enter);
 * the values go into the URL first, so the state is shareable and back/forward restore it.
 */
export function filterForm(
  fields: Field[],
  values: Values,
  onChange: (values: Values) => void,
  extra: Record<string, string | undefined> = {},
): HTMLFormElement {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const form = submitForm(
    { class: 'filters', role: 'search', 'aria-label': 'Filters' },
    () => fire(),
    fields.map((f) => {
      const id = `f-${f.name}`;
      const control = f.options
        ? h(
            'select',
            { id, name: f.name },
            h('option', { value: '' }, 'any'),
            f.options.map((o) => h('option', { value: o, selected: values[f.name] === o }, o)),
          )
        : h('input', {
            id,
            name: f.name,
            type: 'search',
            value: values[f.name] ?? '',
            placeholder: f.placeholder ?? '',
            list: f.list,
            autocomplete: 'off',
            spellcheck: 'false',
          });
      return h('div', { class: 'field' }, h('label', { for: id }, f.label), control);
    }),
    h('button', { type: 'reset', class: 'secondary' }, 'Clear'),
  );
  const read = (): Values =>
    Object.fromEntries(fields.map((f) => [f.name, (form.elements.namedItem(f.name) as HTMLInputElement).value.trim()]));
  const fire = () => {
    clearTimeout(timer);
    const next = read();
    setQuery({ ...extra, ...next });
    onChange(next);
  };
  form.addEventListener('input', (event) => {
    clearTimeout(timer);
    timer = setTimeout(fire, (event.target as HTMLElement).tagName === 'SELECT' ? 0 : 300);
  });
  form.addEventListener('reset', () => setTimeout(fire, 0));
  return form;
}

/** "1–100 of 2,345" with links to the newer and older pages. */
export function pager(total: number, offset: number, limit: number, shown: number): HTMLElement {
  const link = (to: number, label: string, rel: string) => {
    const q = new URLSearchParams(location.search);
    if (to > 0) q.set('offset', String(to));
    else q.delete('offset');
    const text = q.toString();
    return h('a', { href: location.pathname + (text ? `?${text}` : ''), rel }, label);
  };
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    h(
      'span',
      { 'aria-live': 'polite' },
      total === 0 ? 'Nothing matches.' : `${offset + 1}–${offset + shown} of ${total.toLocaleString('en')}`,
    ),
    offset > 0 ? link(Math.max(0, offset - limit), '← Newer', 'prev') : null,
    offset + limit < total ? link(offset + limit, 'Older →', 'next') : null,
  );
}

export function table(caption: string, headers: string[], body: HTMLTableSectionElement, cls?: string): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: cls },
      h('caption', { class: 'visually-hidden' }, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          headers.map((x) => h('th', { scope: 'col' }, x)),
        ),
      ),
      body,
    ),
  );
}

export const cell = (...children: Child[]) => h('td', null, ...children);

export const datalist = (id: string, values: string[]) =>
  h(
    'datalist',
    { id },
    values.map((v) => h('option', { value: v })),
  );
