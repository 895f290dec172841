/**
 * Proxy mode in the web inspector: a forwarded request's detail names where it went and what
 * came back, and lists each violation of the OpenAPI document the live answer had.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { RunningEmulator } from '../../src/index.js';
import { startUpstreamStandIn, type UpstreamStandIn } from '../helpers/upstream-stand-in.js';
import { HAS_BROWSER, HEADERS, launchBrowser, openPage, startPageEmulator } from './harness.js';

describe.skipIf(!HAS_BROWSER)('web inspector: proxy mode', () => {
  let browser: Browser;
  let live: RunningEmulator;
  let standIn: UpstreamStandIn;
  let proxy: RunningEmulator;
  beforeAll(async () => {
    [browser, live] = await Promise.all([launchBrowser(), startPageEmulator()]);
    standIn = await startUpstreamStandIn(live.url);
    proxy = await startPageEmulator({ upstream: standIn.url });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await standIn?.close();
    await live?.close();
  });

  it('shows the upstream call and each violation on the request’s detail', async () => {
    standIn.plan = () => (answer) => ({ ...answer, body: JSON.stringify({ ...JSON.parse(answer.body), name: 42 }) });
    const res = await fetch(`${proxy.url}/api/templates/black-friday-promo`, { headers: HEADERS });
    expect(res.status).toBe(200);
    standIn.plan = () => 'pass';
    await fetch(`${proxy.url}/api/templates/black-friday-promo`, { headers: HEADERS });
    const [broken, fine] = (await proxy.client.requests()).items;

    const { page, problems } = await openPage(browser);
    await page.goto(`${proxy.url}/__/requests/${broken!.id}`);
    await page.getByRole('heading', { level: 2, name: 'Upstream (live service)' }).waitFor();
    await expect
      .poll(() => page.locator('.upstream-url').textContent())
      .toBe(`${standIn.url}/api/templates/black-friday-promo`);
    const violations = page.getByRole('group', { name: 'Violations of the OpenAPI document' });
    expect(await violations.getByRole('listitem').allTextContents()).toEqual([
      '$.name: expected string, received number',
    ]);
    await page.goto(`${proxy.url}/__/requests/${fine!.id}`);
    await page.getByText('The answer matches the OpenAPI document.').waitFor();
    expect(problems).toEqual([]);
  });
});
