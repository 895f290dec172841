/**
 * The web inspector's files under /__/ (built into dist/ui by `npm run build`): hashed assets
 * with a year-long cache, index.html (no-cache) for every other path under /__/ so that deep
 * links and reloads open the right view. The page itself needs no admin token: it asks for
 * one and sends it on its API calls.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../context.js';
import { requestHeader } from '../plain-headers.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

/**
 * dist/ui next to this module: dist/cli.js (the bundle) and dist/http/control/inspector.js
 * (the library) both find it by walking up; from src/ (tests under tsx) the built dist/ui.
 */
export function findInspectorDir(from = import.meta.url): string | null {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    for (const candidate of [join(dir, 'ui'), join(dir, 'dist', 'ui')]) {
      if (existsSync(join(candidate, 'index.html'))) return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src * data: blob:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Web inspector not built</title>
<p>The web inspector's files are missing (dist/ui). Run <code>npm run build</code> and restart the emulator.</p>`;

/** Whether a request comes from a browser that asked for a page (Accept names text/html). */
export const wantsHtml = (c: Context<AppEnv>): boolean =>
  (c.req.method === 'GET' || c.req.method === 'HEAD') && (requestHeader(c, 'accept') ?? '').includes('text/html');

export function inspectorRoutes(dir: string | null = findInspectorDir()): Hono<AppEnv> {
  // Read once per app, on first use; the files are small and never change while it runs.
  const files = new Map<string, Buffer | null>();
  const read = (path: string): Buffer | null => {
    if (!files.has(path)) {
      const full = dir === null ? null : join(dir, path);
      files.set(path, full !== null && existsSync(full) ? readFileSync(full) : null);
    }
    return files.get(path) ?? null;
  };
  const page = (c: Context<AppEnv>) => {
    const html = read('index.html');
    if (html === null) return c.html(NOT_BUILT, 503, { 'cache-control': 'no-cache' });
    return c.body(new Uint8Array(html), 200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      // Own scripts and calls only; images from anywhere (a delivery's content names them).
      'content-security-policy': CSP,
      // The page's URLs (ids, filters) stay off the image hosts a delivery's content names.
      'referrer-policy': 'no-referrer',
    });
  };
  return new Hono<AppEnv>()
    .get('/__', (c) => c.redirect('/__/'))
    .get('/__/assets/:file{[A-Za-z0-9._-]+}', (c, next) => {
      const file = c.req.param('file');
      const body = read(`assets/${file}`);
      if (body === null) return next();
      return c.body(new Uint8Array(body), 200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      });
    })
    .get('/__/', page)
    .get('/__/*', (c, next) => (c.req.path.startsWith('/__/assets/') ? next() : page(c)));
}
