/**
 * 405 for a path the emulator has under other methods only. Decided in the not-found
 * handler, so only unmatched requests pay for it: hono's methodNotAllowed middleware does the
 * same lookup but wraps every request, the hot send path included, in one more layer
 * (docs/performance.md#where-the-speed-comes-from).
 */
import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

interface RouteEntry {
  method: string;
  path: string;
}

/** The methods the app's routes answer at `path` (GET brings HEAD); built on first use, once every route is added. */
export function allowedMethodsOf(app: Pick<Hono, 'routes'>): (path: string) => string[] {
  let router: TrieRouter<string[]> | undefined;
  const build = (routes: readonly RouteEntry[]) => {
    const methodsByPath = new Map<string, Set<string>>();
    for (const { method, path } of routes) {
      if (method === 'ALL' || method === 'HEAD') continue; // middleware, and HEAD comes with GET
      const methods = methodsByPath.get(path) ?? new Set<string>();
      methods.add(method);
      if (method === 'GET') methods.add('HEAD');
      methodsByPath.set(path, methods);
    }
    const trie = new TrieRouter<string[]>();
    for (const [path, methods] of methodsByPath) trie.add('ALL', path, [...methods]);
    return trie;
  };
  return (path) => {
    router ??= build(app.routes);
    const allowed = new Set<string>();
    for (const [methods] of router.match('ALL', path)[0]) for (const method of methods) allowed.add(method);
    return [...allowed];
  };
}
