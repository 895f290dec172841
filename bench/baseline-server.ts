/**
 * The ceiling of our stack on this machine: a bare Hono + @hono/node-server route that
 * parses a JSON body and answers a small JSON, and two that answer a GET (a small JSON, a page
 * of N bytes). Run as a child process by bench/run.ts.
 */
import { Hono } from 'hono';
import { serve } from '@hono/node-server';

const app = new Hono();
app.post('/send', async (c) => {
  const body = (await c.req.json()) as { targets?: unknown[] };
  return c.json({ ok: true, targets: Array.isArray(body.targets) ? body.targets.length : 0 });
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
