/**
 * The app's router remembers matches; it must answer exactly what hono's TrieRouter answers
 * for the same routes (handlers, their order, parameters), remembered or not, and keep its
 * memory bounded however many distinct paths arrive.
 */
import { describe, expect, it } from 'vitest';
import type { Result } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { RememberingRouter } from '../../src/http/remembering-router.js';
import { makeTestApp } from '../helpers/app.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function appRoutes() {
  const app = makeTestApp();
  void app.close();
  expect(app.router).toBeInstanceOf(RememberingRouter);
  return app.routes;
}

function bothRouters(routes: { method: string; path: string; handler: unknown }[]) {
  const remembering = new RememberingRouter<unknown>();
  const trie = new TrieRouter<unknown>();
  for (const { method, path, handler } of routes) {
    remembering.add(method, path, handler);
    trie.add(method, path, handler);
  }
  return { remembering, trie };
}

/** Handlers and plain copies of their parameters, comparable with toEqual. */
function plain(result: Result<unknown>) {
  return (result[0] as [unknown, Record<string, string>][]).map(([handler, params]) => [handler, { ...params }]);
}

/** Concrete paths for every route pattern, plus the static words that sit beside parameters and paths no route has. */
function samplePaths(routes: { path: string }[]): string[] {
  const paths = new Set<string>([
    '/',
    '/nope',
    '/api',
    '/api/',
    '/api/nope/deeper',
    '/__',
    '/__/',
    '/__x',
    '/%2f..',
    '',
  ]);
  for (const { path } of routes) {
    for (const value of ['c-1', 'availability', 'upload', 'send', '%20']) {
      const concrete = path.replace(/:[^/]+/g, value).replace(/\*$/, 'anything/here');
      paths.add(concrete);
      paths.add(`${concrete}/extra`);
    }
  }
  return [...paths];
}

describe('RememberingRouter', () => {
  it('matches what the TrieRouter matches for every route of the app, the first time and when remembered', () => {
    const routes = appRoutes();
    const { remembering, trie } = bothRouters(routes);
    const paths = samplePaths(routes);
    expect(paths.length).toBeGreaterThan(250);
    for (let round = 0; round < 2; round++)
      for (const path of paths)
        for (const method of METHODS)
          expect(plain(remembering.match(method, path)), `${method} ${path}`).toEqual(plain(trie.match(method, path)));
    // Matches with parameters are not remembered, so ids never fill the memory.
    expect(remembering.remembered).toBeLessThan(paths.length * METHODS.length);
    remembering.match('GET', '/api/campaigns/some-id');
    const before = remembering.remembered;
    remembering.match('GET', '/api/campaigns/other-id');
    expect(remembering.remembered).toBe(before);
    expect(remembering.match('GET', '/api/campaigns/other-id')[0].at(-1)?.[1]).toEqual({ id: 'other-id' });
  });

  it('forgets what it remembered when a route is added', () => {
    const router = new RememberingRouter<string>();
    router.add('GET', '/a/*', 'wildcard');
    expect(plain(router.match('GET', '/a/b'))).toEqual([['wildcard', {}]]);
    router.add('GET', '/a/b', 'static');
    expect(plain(router.match('GET', '/a/b'))).toEqual([
      ['wildcard', {}],
      ['static', {}],
    ]);
  });

  it('keeps at most 1,000 matches, none for long paths, and stays right after it starts over', () => {
    const routes = appRoutes();
    const { remembering, trie } = bothRouters(routes);
    for (let i = 0; i < 3_000; i++) {
      const path = i % 2 ? `/api/unknown-${i}` : `/__inspect/nothing-${i}`;
      expect(plain(remembering.match('GET', path))).toEqual(plain(trie.match('GET', path)));
      expect(remembering.remembered).toBeLessThanOrEqual(1_000);
    }
    // A long path is matched, not kept.
    const kept = remembering.remembered;
    const long = `/api/${'x'.repeat(10_000)}`;
    expect(plain(remembering.match('GET', long))).toEqual(plain(trie.match('GET', long)));
    expect(remembering.remembered).toBe(kept);
    expect(plain(remembering.match('POST', '/api/notifications/send'))).toEqual(
      plain(trie.match('POST', '/api/notifications/send')),
    );
  });
});
