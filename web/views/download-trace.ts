/**
 * The overview's "Download trace" control: GET /__export of every app or of one (the app in
 * view: the page's `appId` or `app` parameter preselects it), saved under the file name the
 * emulator gives (docs/reference.md#traces).
 */
import { api } from '../api.js';
import { h } from '../dom.js';

/** The app the page is looking at, when its address names one. */
const appInView = (): string => {
  const params = new URLSearchParams(location.search);
  return params.get('appId') ?? params.get('app') ?? '';
};

async function download(appId: string, status: HTMLElement): Promise<void> {
  status.textContent = 'Exporting…';
  const res = await api.exportTrace(appId || undefined);
  if (!res.ok) {
    status.textContent = `Export failed: ${res.status}`;
    return;
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'trace.json';
  const url = URL.createObjectURL(await res.blob());
  const link = h('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  status.textContent = `Saved ${name}`;
}

export function downloadTraceControl(appIds: readonly string[]): HTMLElement {
  const chosen = appInView();
  const select = h(
    'select',
    { 'aria-label': 'Apps in the trace' },
    h('option', { value: '' }, 'All apps'),
    [...new Set([...appIds, ...(chosen ? [chosen] : [])])].map((id) =>
      h('option', { value: id, selected: id === chosen }, id),
    ),
  );
  const status = h('span', { class: 'muted', role: 'status' });
  const button = h('button', { type: 'button' }, 'Download trace');
  button.addEventListener('click', () => void download(select.value, status));
  return h('p', { class: 'trace-download' }, select, ' ', button, ' ', status);
}
