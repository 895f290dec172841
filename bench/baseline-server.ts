/**
 * The ceiling of our stack on this machine: a bare Hono + @hono/node-server route that
 * parses a send's JSON body and answers the JSON a send answers, and two that answer a GET (a
 * small JSON, a page of N bytes). Run as a child process by bench/run.ts.
 */
import { Hono } from 'hono';
import { serve } from '@hono/node-server';

const app = new Hono();
let sent = 0;
/**
 * The same JSON as the emulator's answer to the send, field for field and about as long (a
 * fresh id of the same length and the time): a route answering 24 bytes had less to write
 * than the emulator it was the ceiling of. What the emulator adds is then its own work.
 */
app.post('/send', async (c) => {
  const body = (await c.req.json()) as { template?: { key?: unknown }; mode?: unknown; title?: unknown; tag?: unknown };
  sent++;
  return c.json({
    notificationId: `notif_${sent.toString(16).padStart(24, '0')}`,
    templateKey: body.template?.key ?? null,
    channels: ['in_app'],
    mode: body.mode ?? null,
    title: body.title ?? null,
    tag: body.tag ?? null,
    sentFrom: 'api',
    createdAt: new Date().toISOString(),
  });
});

// The floor of a burst of GETs (bench/metrics/burst.ts): what answering costs before any work.
app.get('/health', (c) => c.json({ status: 'ok' }));

// The floor of a burst of large pages: `bytes` of JSON, made once per size, as the emulator
// answers a page it kept (src/reads/answer-memo.ts).
const pages = new Map<number, Uint8Array<ArrayBuffer>>();
app.get('/page', (c) => {
  const bytes = Number(c.req.query('bytes') ?? 0);
  let page = pages.get(bytes);
  if (page === undefined) {
    page = new TextEncoder().encode(JSON.stringify({ items: 'x'.repeat(Math.max(0, bytes - 13)) }));
    pages.set(bytes, page);
  }
  return c.body(page, 200, { 'content-type': 'application/json' });
});

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`baseline listening on http://127.0.0.1:${info.port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
