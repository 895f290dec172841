/**
 * The deliveries view at scale: with 1,000,000 deliveries stored its first page shows in under
 * a second (the server pages), and a live feed of 1,000 deliveries a second keeps the page
 * responsive with a bounded number of rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { RunningEmulator } from '../../src/index.js';
import { NO_DELIVERY_FAULTS } from '../../src/domain/ports.js';
import { HAS_BROWSER, launchBrowser, openPage, startPageEmulator } from './harness.js';

const LIVE_WINDOW = 500;

describe.skipIf(!HAS_BROWSER)('web inspector at scale', () => {
  let browser: Browser;
  let emu: RunningEmulator;
  let serial = 0;
  const batch = (size: number) => {
    const first = serial;
    serial += size;
    emu.app.emulator.services.notifications.send(
      'shop-app',
      {
        template: { key: 'appointment-reminder', variables: { name: 'Pat', appointment_number: 'A-1' } },
        targets: Array.from({ length: size }, (_, i) => `user-${first + i}`),
        mode: 'batch',
      },
      NO_DELIVERY_FAULTS,
    );
  };

  beforeAll(async () => {
    [browser, emu] = await Promise.all([launchBrowser(), startPageEmulator()]);
    for (let i = 0; i < 100; i++) batch(10_000);
    expect(emu.app.emulator.store.stats().deliveries).toBe(1_000_000);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await emu?.close();
  });

  it('shows the first page of 1,000,000 deliveries in under 1 s', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${emu.url}/__/`);
    await page.locator('tbody tr').first().waitFor();
    // From the start of the navigation to the rows in the page (the page marks it).
    const shownAt = await page.evaluate(
      () => performance.getEntriesByName('deliveries:first-page')[0]?.startTime ?? Infinity,
    );
    expect(shownAt).toBeLessThan(1000);
    expect(await page.locator('tbody tr').count()).toBe(100);
    expect(await page.locator('tbody tr').first().textContent()).toContain('user-999999'); // newest first
    expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain('1–100 of 1,000,000');
    expect(problems).toEqual([]);
  });

  it('keeps rendering under a live feed of 1,000 deliveries per second, with at most 500 rows', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${emu.url}/__/`);
    await page.getByText('Live: new deliveries appear at the top.').waitFor();
    const before = serial;
    for (let step = 0; step < 40; step++) {
      batch(100); // 100 every 100 ms: 1,000 a second for 4 s
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const newest = `user-${serial - 1}`;
    await page.getByRole('cell', { name: newest, exact: true }).waitFor({ timeout: 5000 });
    expect(await page.locator('tbody tr').count()).toBeLessThanOrEqual(LIVE_WINDOW);
    expect(await page.locator('tbody tr').first().textContent()).toContain(newest);
    // Each animation frame renders the batch that arrived since the last one: never a long task.
    const renders = await page.evaluate(() =>
      performance.getEntriesByName('deliveries:live-render').map((m) => m.duration),
    );
    expect(renders.length).toBeGreaterThan(5);
    // (tens of ms on an idle 2-core machine; the bound leaves room for a loaded one)
    expect(Math.max(...renders), 'longest live render (ms)').toBeLessThan(300);
    expect(renders.length, 'one render per frame, not per delivery').toBeLessThan(4000 / 5);
    expect(serial - before).toBe(4000);
    expect(problems).toEqual([]);
  });
});
