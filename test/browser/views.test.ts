/**
 * Every view over seeded data: loads with no console error and no failed request, in light and
 * dark, at 1280×800 and on a narrow window; the page is usable from the keyboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { RunningEmulator } from '../../src/index.js';
import { HAS_BROWSER, launchBrowser, openPage } from './harness.js';
import { seed, startSeeded } from './seed.js';

// The page globals these page.evaluate callbacks read (the Node typecheck has no DOM library).
declare const window: { innerWidth: number };
declare const document: {
  documentElement: { scrollWidth: number };
  activeElement: { textContent: string | null; tagName: string; id: string } | null;
};
declare function requestAnimationFrame(callback: (now: number) => void): number;

describe.skipIf(!HAS_BROWSER)('web inspector: every view', () => {
  let browser: Browser;
  let emu: RunningEmulator;
  let views: [string, string, string][];
  beforeAll(async () => {
    [browser, emu] = await Promise.all([launchBrowser(), startSeeded()]);
    const { campaignId } = await seed(emu);
    const delivery = (await emu.client.deliveries({ limit: 1 })).items[0]!;
    const request = (await emu.client.requests({ limit: 1 })).items[0]!;
    views = [
      ['Deliveries', '/__/', 'Deliveries'],
      ['a delivery', `/__/deliveries/${delivery.id}`, `Delivery to ${delivery.userId}`],
      ['Requests', '/__/requests', 'Requests'],
      ['Campaigns', '/__/campaigns', 'Campaigns'],
      ['a campaign', `/__/campaigns/${campaignId}`, 'Black Friday launch'],
      ['Scenarios', '/__/scenarios', 'Scenarios'],
      ['Clock', '/__/clock', 'Clock'],
      ['Templates', '/__/templates?appId=shop-app&template=black-friday-promo', 'Templates and channels'],
      ['Overview', '/__/overview', 'Overview'],
      ['Reset', '/__/reset', 'Reset'],
      ['a request', `/__/requests/${request.id}`, `${request.method} ${request.path}`],
    ];
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await emu?.close();
  });

  for (const [width, height, colorScheme] of [
    [1280, 800, 'light'],
    [400, 800, 'dark'],
  ] as const) {
    it(`loads each view with no console error or failed request (${width}×${height}, ${colorScheme})`, async () => {
      const { page, problems } = await openPage(browser, { width, height, colorScheme });
      for (const [name, path, heading] of views) {
        await page.goto(`${emu.url}${path}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.waitForTimeout(250); // late requests (lists, streams) would show up as problems
        // nothing wider than the window but tables, which scroll inside their own box
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} is wider than the window`).toBeLessThanOrEqual(1);
        expect(problems, name).toEqual([]);
      }
    });
  }

  it('is usable from the keyboard: skip link, navigation links, focus on the new heading', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${emu.url}/__/`);
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab'); // brand
    await page.keyboard.press('Tab'); // Deliveries
    await page.keyboard.press('Tab'); // Requests
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Requests');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/__\/requests$/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Requests');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(await page.getByRole('link', { name: 'Requests' }).getAttribute('aria-current')).toBe('page');
    // "/" jumps to the first filter
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-appId');
    // tables have real column headers
    expect(await page.getByRole('columnheader', { name: 'Status' }).count()).toBe(1);
    expect(problems).toEqual([]);
  });
});
