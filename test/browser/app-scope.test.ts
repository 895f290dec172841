/**
 * The app selector of the clock, scenarios and overview views: deep links (`/__/clock?appId=A`,
 * the API's name; the earlier `?app=A` still works and is rewritten) scope the view to app A,
 * whose own clock and scenario set the page shows and changes while the shared clock and the
 * global set stay as they were. An app with no records says so on the deliveries list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { campaign, HAS_BROWSER, launchBrowser, openPage, send, sendCampaign, startPageEmulator } from './harness.js';

const SEND_OUTAGE = {
  name: 'send-outage',
  rules: [{ match: { method: 'POST', path: '/api/notifications/send' }, fault: { error: 'ERR_OPERATION_FAILED' } }],
};

describe.skipIf(!HAS_BROWSER)('web inspector: views scoped to one app', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("moves only the chosen app's clock and switches only its scenarios", async () => {
    const emu = await startPageEmulator({ scenarios: [SEND_OUTAGE] });
    try {
      const shared = (await emu.client.clock.get()).now;
      const id = await campaign(emu, 'Morning push', ['a', 'b']);
      await sendCampaign(emu, id, new Date(Date.parse(shared) + 1_800_000).toISOString());
      const { page, problems } = await openPage(browser);

      await page.goto(`${emu.url}/__/clock?app=shop-app`);
      await page.getByRole('heading', { name: 'Clock of shop-app' }).waitFor();
      await page.waitForURL((url) => url.search === '?appId=shop-app'); // the earlier name, rewritten
      await page.getByText('shared clock', { exact: true }).waitFor();
      await page.getByRole('button', { name: '+1 hour' }).click();
      await page.getByText('own clock', { exact: true }).waitFor();
      await expect.poll(async () => (await emu.client.campaign(id)).status).toBe('sent');
      expect((await emu.client.clock.get()).now).toBe(shared); // the shared clock did not move
      expect((await emu.client.forApp('shop-app').clock.get()).scope).toBe('app');
      await page.getByRole('button', { name: 'Back to the shared clock' }).click();
      await page.getByText('shared clock', { exact: true }).waitFor();
      expect((await emu.client.forApp('shop-app').clock.get()).scope).toBe('shared');

      // The selector: back to no app, the URL follows.
      await page.getByLabel('App').selectOption('');
      await page.getByRole('heading', { name: 'Clock', exact: true }).waitFor();
      expect(new URL(page.url()).search).toBe('');

      await page.goto(`${emu.url}/__/scenarios?appId=shop-app`);
      await page.getByRole('heading', { name: 'Scenarios of shop-app' }).waitFor();
      await page.getByText('global set', { exact: true }).waitFor();
      await page.getByRole('switch', { name: 'send-outage active' }).click();
      await page.getByText('own set', { exact: true }).waitFor();
      expect((await send(emu, ['u1'])).status).toBe(500);
      expect((await emu.client.scenarios.list()).active).toEqual([]); // the global set is untouched

      await page.goto(`${emu.url}/__/overview?appId=shop-app`);
      await page.getByRole('heading', { name: 'Overview of shop-app' }).waitFor();
      await expect.poll(() => page.locator('dl.facts').textContent()).toContain('send-outage');
      expect(await page.locator('dl.facts').textContent()).toContain('shared clock');
      expect(problems).toEqual([]);
    } finally {
      await emu.close();
    }
  });

  it('one name for the app on every page; an app with no records says so, with the apps there are', async () => {
    const emu = await startPageEmulator();
    try {
      expect((await send(emu, ['u1'])).status).toBe(200);
      const { page, problems } = await openPage(browser);

      // The deliveries list took ?appId= only: ?app= named nothing and showed every app's.
      await page.goto(`${emu.url}/__/?app=nobody`);
      await page.getByText('No records for app nobody.').waitFor();
      expect(new URL(page.url()).search).toBe('?appId=nobody');
      expect(await page.locator('table tbody tr').count()).toBe(0);
      const known = page.getByRole('link', { name: 'shop-app' });
      expect(await known.getAttribute('href')).toBe('/__/?appId=shop-app');
      expect(await page.getByRole('link', { name: '/__apps' }).getAttribute('href')).toBe('/__apps');
      await known.click();
      await page.locator('table tbody tr').first().waitFor();
      expect(new URL(page.url()).search).toBe('?appId=shop-app');

      // Templates reads the same name, and its form writes it.
      await page.goto(`${emu.url}/__/templates?appId=other-app`);
      await page.getByRole('heading', { name: 'Templates and channels' }).waitFor();
      expect(await page.locator('input#app').inputValue()).toBe('other-app');
      await page.goto(`${emu.url}/__/templates?app=shop-app&template=welcome-message`);
      expect(await page.locator('input#app').inputValue()).toBe('shop-app');
      // The rename is history.replaceState: Playwright learns of it from an event, so wait for it.
      await page.waitForURL(
        (url) =>
          !url.searchParams.has('app') &&
          url.searchParams.get('appId') === 'shop-app' &&
          url.searchParams.get('template') === 'welcome-message',
      );
      expect(problems).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
