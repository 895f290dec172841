/**
 * The overview's traces: a "Download trace" button (GET /__export of every app, or of the app
 * the overview is scoped to with `?appId=`), saved under the file name the emulator gives; and
 * the trace the state came from, as a line of the overview's facts (docs/traces.md).
 */
import { api } from '../api.js';
import { h, time } from '../dom.js';

async function download(appId: string | undefined, status: HTMLElement): Promise<void> {
  status.textContent = 'Exporting…';
  const res = await api.exportTrace(appId);
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

/** "Download trace" of every app; with an app in view, of that app too. */
export function downloadTraceControl(appInView: string | undefined): HTMLElement {
  const status = h('span', { class: 'muted', role: 'status' });
  const button = (label: string, appId: string | undefined) => {
    const b = h('button', { type: 'button' }, label);
    b.addEventListener('click', () => void download(appId, status));
    return b;
  };
  const buttons =
    appInView === undefined
      ? [button('Download trace', undefined)]
      : [button(`Download trace of ${appInView}`, appInView), ' ', button('Download trace of every app', undefined)];
  return h('p', { class: 'trace-download' }, buttons, ' ', status);
}

interface TraceOrigin {
  fileName: string | null;
  appId: string | null;
  exportedAt: string;
}

/** The overview's "From trace" fact when the state was imported (--import, view, POST /__import). */
export const traceOriginFacts = (origin: TraceOrigin | null): [string, unknown][] =>
  origin
    ? [
        [
          'From trace',
          [
            origin.fileName ?? 'a trace sent to POST /__import',
            origin.appId ? ` (app ${origin.appId})` : '',
            ', exported at ',
            time(origin.exportedAt),
          ],
        ],
      ]
    : [];
