/**
 * The overview's "Download trace" button: every app's trace or the app in view, saved under
 * the emulator's file name; and the trace's origin shown once the state came from a file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserWithFreshEmulator, HAS_BROWSER, openPage, send } from './harness.js';

describe.skipIf(!HAS_BROWSER)('web inspector: traces', () => {
  const ctx = browserWithFreshEmulator();

  it('downloads every app or the app in view, and shows where an imported state came from', async () => {
    const { emu, browser } = ctx;
    await send(emu, ['u1', 'u2']);
    await send(emu, ['other'], undefined, { headers: { appid: 'other-app', apikey: 'k' } });
    const { page, problems } = await openPage(browser);
    await page.goto(`${emu.url}/__/overview`);
    const everyApp = page.getByRole('button', { name: 'Download trace', exact: true });
    await everyApp.waitFor();
    const [all] = await Promise.all([page.waitForEvent('download'), everyApp.click()]);
    expect(all.suggestedFilename()).toMatch(/^notification-emulator-trace-\d{4}-.*Z\.json$/);
    const whole = JSON.parse(readFileSync((await all.path())!, 'utf8')) as { appId: null; deliveries: unknown[] };
    expect(whole).toMatchObject({ format: 'notification-emulator-trace', appId: null });
    expect(whole.deliveries).toHaveLength(3);

    // The overview scoped to an app (its app selector, ?appId=) downloads that app's trace, or every app's.
    await page.goto(`${emu.url}/__/overview?appId=other-app`);
    await page.getByRole('button', { name: 'Download trace of every app' }).waitFor();
    const [one] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download trace of other-app' }).click(),
    ]);
    expect(one.suggestedFilename()).toMatch(/^notification-emulator-trace-other-app-/);
    const text = readFileSync((await one.path())!, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ appId: 'other-app', deliveries: [{ userId: 'other' }] });

    const imported = await fetch(`${emu.url}/__import?fileName=ci-run.json`, { method: 'POST', body: text });
    expect(imported.status).toBe(200);
    await page.goto(`${emu.url}/__/overview`);
    await expect
      .poll(() => page.locator('dl.facts').textContent())
      .toMatch(/From trace\s*ci-run\.json \(app other-app\), exported at/);
    expect(problems).toEqual([]);
  });
});
