/**
 * The deliveries view at scale: with 1,000,000 deliveries stored its first page shows in under
 * a second (the server pages), and a live feed of 1,000 deliveries a second keeps the page
 * responsive with a bounded number of rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { EmulatorClock, startEmulator, type RunningEmulator } from '../../src/index.js';
import { NO_DELIVERY_FAULTS } from '../../src/domain/ports.js';
import { HAS_BROWSER, launchBrowser, openPage } from './harness.js';

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
    [browser, emu] = await Promise.all([
      launchBrowser(),
      startEmulator({
        port: 0,
        host: '127.0.0.1',
        watch: false,
        logLevel: 'silent',
        fixturesDir: 'fixtures',
        scenarios: [],
        clock: new EmulatorClock('2030-11-29T08:00:00.000Z'),
      }),
    ]);
    for (let i = 0; i < 100; i++) batch(10_000);
    expect(emu.app.emulator.store.stats().deliveries).toBe(1_000_000);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await emu?.close();
  });

  it('shows the first page of 1,000,000 deliveries in under 1 s', async () => {
    const { page, problems } = await openPage(browser);
    const started = Date.now();
    await page.goto(`${emu.url}/__/`);
    await page.locator('tbody tr').first().waitFor();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(1000);
    expect(await page.locator('tbody tr').count()).toBe(100);
    expect(await page.locator('tbody tr').first().textContent()).toContain('user-999999'); // newest first
    expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain('1–100 of 1,000,000');
    expect(problems).toEqual([]);
  });

  it('keeps rendering under a live feed of 1,000 deliveries per second, with at most 500 rows', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${emu.url}/__/`);
    await page.getByText('Live: new deliveries appear at the top.').waitFor();
    // the longest gap between two animation frames while the feed runs
    await page.evaluate(() => {
      const w = window as unknown as { maxGap: number };
      w.maxGap = 0;
      let last = performance.now();
      const tick = (now: number) => {
        w.maxGap = Math.max(w.maxGap, now - last);
        last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const before = serial;
    for (let step = 0; step < 40; step++) {
      batch(100); // 100 every 100 ms: 1,000 a second for 4 s
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const newest = `user-${serial - 1}`;
    await page.getByRole('cell', { name: newest, exact: true }).waitFor({ timeout: 5000 });
    expect(await page.locator('tbody tr').count()).toBeLessThanOrEqual(LIVE_WINDOW);
    expect(await page.locator('tbody tr').first().textContent()).toContain(newest);
    const maxGap = await page.evaluate(() => (window as unknown as { maxGap: number }).maxGap);
    expect(maxGap, 'longest frame gap (ms)').toBeLessThan(500);
    // the page answers input at once after the feed
    const t0 = Date.now();
    await page.getByLabel('User').fill('user-1');
    expect(Date.now() - t0).toBeLessThan(500);
    expect(serial - before).toBe(4000);
    expect(problems).toEqual([]);
  });
});
