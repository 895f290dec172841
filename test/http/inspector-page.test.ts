/**
 * The web inspector's page at /__/: served by the emulator itself (deep links included), hashed
 * assets with a long cache, a redirect from / for browsers only, no admin token needed for the
 * page (its API calls need it), and the size budget of its JS + CSS.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { findInspectorDir, inspectorRoutes } from '../../src/http/control/inspector.js';
import { call, expectApiError, makeTestApp } from '../helpers/app.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the web inspector page', () => {
  const app = makeTestApp();
  afterAll(() => app.close());

  it('serves index.html at /__/ and at every deep link under it, uncached', async () => {
    for (const path of ['/__/', '/__/deliveries/abc', '/__/campaigns?status=sent', '/__/scenarios']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await res.text();
      expect(html).toMatch(/<script type="module" src="\/__\/assets\/app-[A-Z0-9]+\.js"><\/script>/);
      expect(html).toMatch(/<link rel="stylesheet" href="\/__\/assets\/style-[A-Z0-9]+\.css"/);
      expect(html).not.toMatch(/https?:\/\//); // offline: no CDN, no web font
    }
  });

  it('serves the hashed assets with a year-long immutable cache', async () => {
    const html = await (await app.request('/__/')).text();
    for (const [, path, type] of [
      [null, html.match(/src="([^"]+\.js)"/)![1]!, 'text/javascript; charset=utf-8'],
      [null, html.match(/href="([^"]+\.css)"/)![1]!, 'text/css; charset=utf-8'],
    ] as const) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  it('answers an unknown asset with the JSON 404 envelope', async () => {
    expectApiError(await call(app, 'GET', '/__/assets/app-NOPE.js'), 404, 'ERR_NOT_FOUND');
    expectApiError(await call(app, 'GET', '/__/assets/..%2Fpackage.json'), 404, 'ERR_NOT_FOUND');
  });

  it('redirects a browser from / and /__ to /__/; API clients keep the JSON 404', async () => {
    for (const path of ['/', '/__']) {
      const res = await app.request(path, { headers: HTML });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location')).toBe('/__/');
    }
    expectApiError(await call(app, 'GET', '/'), 404, 'ERR_NOT_FOUND');
    expectApiError(
      await call(app, 'GET', '/', undefined, { headers: { accept: 'application/json' } }),
      404,
      'ERR_NOT_FOUND',
    );
    expectApiError(await call(app, 'POST', '/', {}, { headers: HTML }), 404, 'ERR_NOT_FOUND');
    expectApiError(await call(app, 'GET', '/other', undefined, { headers: HTML }), 404, 'ERR_NOT_FOUND');
  });

  it('with an admin token, serves the page without it but still guards every control call', async () => {
    const guarded = makeTestApp({ adminToken: 't0k' });
    try {
      expect((await guarded.request('/__/')).status).toBe(200);
      expect((await guarded.request('/__/requests')).status).toBe(200);
      expect((await guarded.request('/__', { headers: HTML })).status).toBe(302);
      for (const path of [
        '/__health',
        '/__apps',
        '/__apps/a/templates',
        '/__inspect/delivery-stats',
        '/__inspect/deliveries/x',
      ]) {
        expectApiError(await call(guarded, 'GET', path), 401, 'ERR_UNAUTHORIZED');
      }
      const ok = await call(guarded, 'GET', '/__apps', undefined, { headers: { authorization: 'Bearer t0k' } });
      expect(ok.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('says how to build the page when its files are missing', async () => {
    const bare = new Hono().route('/', inspectorRoutes(null) as unknown as Hono);
    const res = await bare.request('/__/');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build');
  });

  it('keeps its JS + CSS under 150 KB gzipped', () => {
    const dir = findInspectorDir()!;
    const assets = readdirSync(`${dir}/assets`).filter((f) => /\.(js|css)$/.test(f));
    expect(assets.some((f) => f.endsWith('.js'))).toBe(true);
    expect(assets.some((f) => f.endsWith('.css'))).toBe(true);
    const gzipped = assets.reduce((sum, f) => sum + gzipSync(readFileSync(`${dir}/assets/${f}`)).length, 0);
    expect(gzipped).toBeLessThan(150 * 1024);
  });
});
