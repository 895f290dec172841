/**
 * The ceiling of our stack on this machine: a bare Hono + @hono/node-server route that
 * parses a JSON body and answers a small JSON, and one that answers a GET. Run as a child process by bench/run.ts.
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

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`baseline listening on http://127.0.0.1:${info.port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
