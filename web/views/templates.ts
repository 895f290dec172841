/**
 * Templates and channels of one app: status, channels, variable schema and content, a preview
 * rendered with sample values (the generator generate-csv uses) and a ready send request.
 */
import { api, type TemplateInfo } from '../api.js';
import { badge, copyButton, fill, h, pre, shellQuote, submitForm } from '../dom.js';
import { cell, table } from '../list.js';
import { renderContent } from '../render.js';
import { setQuery, showError } from '../router.js';
import type { ViewContext } from '../view.js';

/** A send of `t` with its sample values, as one shell line; in strict mode the key is read from $APIKEY. */
export function sendCurl(appId: string, authMode: 'open' | 'strict', t: TemplateInfo): string {
  const body = {
    template: { key: t.key, variables: t.sample.variables },
    targets: ['user-000001'],
    mode: 'realtime',
  };
  return [
    'curl -sS -X POST',
    shellQuote(`${location.origin}/api/notifications/send`),
    '-H',
    shellQuote('content-type: application/json'),
    '-H',
    shellQuote(`appid: ${appId}`),
    '-H',
    authMode === 'open' ? shellQuote('apikey: any-key') : '"apikey: $APIKEY"',
    '--data-binary',
    shellQuote(JSON.stringify(body)),
  ].join(' ');
}

type TemplatesAnswer = Awaited<ReturnType<typeof api.templates>>;

/** The app's channels: name, type, whether enabled, id. */
function channelsTable(app: string, channels: TemplatesAnswer['channels']): HTMLElement {
  return table(
    `Channels of ${app}`,
    ['Name', 'Type', 'Enabled', 'Id'],
    h(
      'tbody',
      null,
      channels.map((c) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, c.name),
          cell(c.type),
          cell(badge(c.enabled ? 'on' : 'off')),
          cell(h('code', null, c.id)),
        ),
      ),
    ),
  );
}

/** A template's card: its summary, a preview with sample values, the send request, its variables and content. */
function templateCard(
  t: TemplatesAnswer['items'][number],
  app: string,
  authMode: TemplatesAnswer['authMode'],
  open: boolean,
): HTMLElement {
  const variables = t.variableList;
  return h(
    'details',
    { class: 'card', open, 'data-template': t.key },
    h(
      'summary',
      null,
      h('strong', null, t.name),
      ' ',
      h('code', null, t.key),
      ' ',
      badge(t.status),
      ` · ${t.channels.join(', ') || 'no channel'}${t.category ? ` · ${t.category}` : ''} · ${t.source}`,
    ),
    h(
      'div',
      { class: 'detail-grid' },
      h(
        'section',
        null,
        h('h3', null, 'Preview with sample values'),
        t.status === 'approved'
          ? null
          : h('p', { class: 'note' }, `Status ${t.status}: a send answers 400 ERR_TEMPLATE_NOT_APPROVED.`),
        renderContent(t.channels, t.sample.rendered, app, false),
        h(
          'div',
          { class: 'title-row' },
          h('h3', null, 'Send request'),
          copyButton('Copy send request', () => sendCurl(app, authMode, t)),
        ),
        pre(sendCurl(app, authMode, t), 'Send request'),
      ),
      h(
        'section',
        null,
        h('h3', null, 'Variables'),
        variables.length
          ? table(
              `Variables of ${t.key}`,
              ['Key', 'Type', 'Name', 'Required', 'Sample'],
              h(
                'tbody',
                null,
                variables.map((v) =>
                  h(
                    'tr',
                    null,
                    h('th', { scope: 'row' }, v.key),
                    cell(v.type),
                    cell(v.name),
                    cell(v.required ? 'yes' : 'no'),
                    cell(h('code', null, JSON.stringify(t.sample.variables[v.key]))),
                  ),
                ),
              ),
            )
          : h('p', { class: 'muted' }, 'None.'),
        h('h3', null, 'Content'),
        pre(t.content, `Content of ${t.key}`),
        h('p', { class: 'muted' }, `id ${t.id}`),
      ),
    ),
  );
}

export async function templatesView({ main, query, signal }: ViewContext): Promise<void> {
  const apps = await api.apps();
  if (signal.aborted) return;
  const appId = query.get('appId') || apps.items[0]?.appId || 'my-app';
  const selected = query.get('template') ?? '';
  const input = h('input', { id: 'app', name: 'appId', value: appId, list: 'app-list', spellcheck: 'false' });
  const form = submitForm(
    { class: 'filters', role: 'search', 'aria-label': 'App' },
    () => {
      setQuery({ appId: input.value.trim() || undefined });
      void load(input.value.trim() || appId).catch((e: unknown) => showError(content, e));
    },
    h('div', { class: 'field' }, h('label', { for: 'app' }, 'App'), input),
    h(
      'datalist',
      { id: 'app-list' },
      apps.items.map((a) => h('option', { value: a.appId })),
    ),
    h('button', { type: 'submit' }, 'Show'),
  );
  const content = h('div');
  main.append(h('h1', { tabindex: '-1' }, 'Templates and channels'), form, content);

  async function load(app: string): Promise<void> {
    const data = await api.templates(app);
    if (signal.aborted) return;
    const firstApproved = data.items.find((t) => t.status === 'approved') ?? data.items[0];
    fill(
      content,
      data.authMode === 'open'
        ? h(
            'p',
            { class: 'muted' },
            'Open mode: any appid/apikey pair is accepted; shared templates are visible to every app.',
          )
        : h('p', { class: 'muted' }, 'Strict mode: the send requests below read the app’s key from $APIKEY.'),
      h('h2', null, 'Channels'),
      data.channels.length
        ? channelsTable(app, data.channels)
        : h('p', { class: 'muted' }, 'No channel was created for this app (POST /api/channels).'),
      h('h2', null, `Templates (${data.items.length})`),
      data.items.map((t) =>
        templateCard(t, app, data.authMode, t.key === selected || (!selected && t === firstApproved)),
      ),
    );
    content.querySelector(`details[data-template="${CSS.escape(selected)}"]`)?.scrollIntoView();
  }

  content.addEventListener(
    'toggle',
    (event) => {
      const el = event.target as HTMLDetailsElement;
      if (el.open && el.dataset.template)
        setQuery({ appId: input.value.trim(), template: el.dataset.template }, { replace: true });
    },
    true,
  );
  await load(appId);
}
