/**
 * The deliveries view in a real browser: live rows without a reload, filters in the URL,
 * and a delivery's detail rendered as its user sees it.
 */
import { describe, expect, it } from 'vitest';
import { browserWithFreshEmulator, HAS_BROWSER, IMAGE_URL, openPage, send } from './harness.js';

describe.skipIf(!HAS_BROWSER)('web inspector: deliveries', () => {
  const ctx = browserWithFreshEmulator();

  it('shows a send made through the API as it happens, without a reload', async () => {
    const { page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.emu.url}/__/`);
    await page.getByText('Live: new deliveries appear at the top.').waitFor();
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    expect((await send(ctx.emu, ['user-live-1'])).status).toBe(200);
    // The stream brings it, with no navigation (a generous bound: this is not a timing test).
    await page.getByRole('cell', { name: 'user-live-1' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('tbody tr').first().textContent()).toContain('user-live-1');
    expect(navigations).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('puts a typed filter in the URL, and that URL opens the same rows', async () => {
    await send(ctx.emu, ['ada', 'grace']);
    await send(ctx.emu, ['linus']);
    const { page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.emu.url}/__/`);
    await page.getByRole('cell', { name: 'linus' }).waitFor();
    await page.getByLabel('User').fill('grace');
    await page.waitForURL((url) => url.searchParams.get('userId') === 'grace');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    const rows = await page.locator('tbody tr').allTextContents();
    expect(rows[0]).toContain('grace');

    const other = await openPage(ctx.browser);
    await other.page.goto(page.url());
    await other.page.getByRole('cell', { name: 'grace' }).waitFor();
    expect(await other.page.locator('tbody tr').allTextContents()).toEqual(rows);
    expect(await other.page.getByLabel('User').inputValue()).toBe('grace');
    // back to the unfiltered list with the browser's back button
    await page.goBack();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3);
    expect([...problems, ...other.problems]).toEqual([]);
  });

  it('keeps a filtered list live through the stream with its filters; channel types come from the server', async () => {
    const { page, problems } = await openPage(ctx.browser);
    const streams: string[] = [];
    page.on('request', (r) => r.url().includes('/__inspect/stream') && streams.push(r.url()));
    await page.goto(`${ctx.emu.url}/__/?mode=batch`);
    await page.getByText('Live: new deliveries appear at the top.').waitFor();
    // The page asks the stream for the list's filters: the server leaves out what does not match.
    expect(new URL(streams.at(-1)!).searchParams.get('mode')).toBe('batch');
    await send(ctx.emu, ['solo'], undefined, { mode: 'realtime' });
    await send(ctx.emu, ['b1', 'b2']);
    await page.getByRole('cell', { name: 'b2', exact: true }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    expect(await page.locator('tbody').textContent()).not.toContain('solo');
    // The channel filter lists the channel types GET /__apps names.
    const options = await page.getByLabel('Channel').locator('option').allTextContents();
    expect(options).toEqual(['any', 'in_app', 'push', 'sms', 'email', 'whatsapp', 'custom']);
    expect(problems).toEqual([]);
  });

  it('opens a delivery: its rendered title and image, variables and raw record', async () => {
    const hero = { url: IMAGE_URL, width: 600, height: 300 };
    await send(ctx.emu, ['ada'], { name: 'Ada', discount_code: 'BF-ADA', hero });
    const { page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.emu.url}/__/`);
    await page
      .getByRole('link', { name: /^Delivery / })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Delivery to ada' }).waitFor();
    expect(page.url()).toMatch(/\/__\/deliveries\/[0-9a-f]{24}$/);
    const card = page.getByRole('figure', { name: 'In-app message' });
    await expect.poll(() => card.textContent()).toContain('Ada, Black Friday is here');
    const img = card.getByRole('img', { name: 'Notification image' });
    expect(await img.getAttribute('src')).toBe(IMAGE_URL);
    await expect
      .poll(() => img.evaluate((el) => (el as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0))
      .toBe(true);
    expect(await page.getByRole('figure', { name: 'Push notification' }).textContent()).toContain(
      'Black Friday: 30% off',
    );
    expect(await page.getByRole('row', { name: /discount_code/ }).textContent()).toContain('BF-ADA');
    expect(await page.getByLabel('Raw delivery record').textContent()).toContain('"userId": "ada"');
    const links = page.getByRole('navigation', { name: 'Related' });
    expect(await links.getByRole('link', { name: 'The request that caused it' }).getAttribute('href')).toMatch(
      /^\/__\/requests\?bodyContains=notif_[0-9a-f]{24}$/,
    );
    // back and forward between the list and the detail
    await page.goBack();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.goForward();
    await page.getByRole('heading', { name: 'Delivery to ada' }).waitFor();
    expect(problems).toEqual([]);
  });
});
