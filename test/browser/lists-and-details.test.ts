/**
 * What a first-time user trips on in the inspector: whole rows that open their detail (mouse and
 * keyboard), object-shaped buttons in rendered content, the campaign page's upload report and
 * lifecycle, the overview chart's labels, its memory line and the badge glyph, the deliveries
 * list's sizing, hints and empty state.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import {
  browserWithFreshEmulator,
  campaign,
  HAS_BROWSER,
  HEADERS,
  openPage,
  send,
  sendCampaign,
  startPageEmulator,
} from './harness.js';

/** How many lines `cell`'s text takes (1 when it does not wrap). */
const linesOf = (cell: Locator): Promise<number> =>
  cell.evaluate(
    new Function(
      'el',
      'const r = document.createRange(); r.selectNodeContents(el);' +
        'return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;',
    ) as (el: unknown) => number,
  );

/** The computed colour of `selector`'s ::before, or of an element of class `className`. */
const colourOf = (target: Locator, pseudo: string | null): Promise<string> =>
  target.evaluate(new Function('el', 'p', 'return getComputedStyle(el, p).backgroundColor') as never, pseudo);

const MIB = 1024 * 1024;

const ORDER = { customerName: 'Grace', orderId: 'ORD-1', cta: { type: 'web', data: 'https://shop.example/o/1' } };

describe.skipIf(!HAS_BROWSER)('web inspector: lists and details', () => {
  const ctx = browserWithFreshEmulator({ scenarios: undefined, scenariosDir: 'scenarios' });

  it('opens a delivery, a request and a campaign from anywhere on its row, and with Enter or Space', async () => {
    await send(ctx.emu, ['row-user-1']);
    await send(ctx.emu, ['row-user-2']);
    const id = await campaign(ctx.emu, 'Row campaign', ['c-1']);
    const { page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.emu.url}/__/`);
    const row = page.getByRole('row', { name: /row-user-1/ });
    await row.getByRole('cell', { name: 'black-friday-promo' }).click();
    await page.getByRole('heading', { level: 1, name: 'Delivery to row-user-1' }).waitFor();
    await page.goBack();
    // newest first: row-user-2, then row-user-1; the arrow keys move between rows
    await page.getByRole('row', { name: /row-user-2/ }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown'); // the last row: focus stays
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Delivery to row-user-1' }).waitFor();
    await page.goBack();
    // Ctrl+click opens the row in a new tab, and this page stays
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      page
        .getByRole('row', { name: /row-user-2/ })
        .getByRole('cell', { name: 'black-friday-promo' })
        .click({ modifiers: ['Control'] }),
    ]);
    await tab.getByRole('heading', { level: 1, name: 'Delivery to row-user-2' }).waitFor();
    await tab.close();
    expect(page.url()).toBe(`${ctx.emu.url}/__/`);

    await page.goto(`${ctx.emu.url}/__/requests`);
    const upload = page.getByRole('row', { name: /\/api\/campaigns\/upload/ });
    await upload.focus();
    await page.keyboard.press(' ');
    await page.getByRole('heading', { level: 1, name: 'POST /api/campaigns/upload' }).waitFor();

    await page.goto(`${ctx.emu.url}/__/campaigns`);
    await page
      .getByRole('row', { name: /Row campaign/ })
      .getByRole('cell', { name: 'draft' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Row campaign' }).waitFor();
    expect(page.url()).toBe(`${ctx.emu.url}/__/campaigns/${id}`);
    // rows are reached with Tab: they are focusable, and keep their role (the table reads as a table)
    await page.goto(`${ctx.emu.url}/__/campaigns`);
    expect(await page.getByRole('row', { name: /Row campaign/ }).getAttribute('tabindex')).toBe('0');
    expect(problems).toEqual([]);
  });

  it('shows an object-shaped button ({label, action}) in the in-app card and the template preview', async () => {
    await send(ctx.emu, ['grace'], ORDER, { template: 'order-confirmation' });
    const { page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.emu.url}/__/`);
    await page.getByRole('row', { name: /grace/ }).click();
    const card = page.getByRole('figure', { name: 'In-app message' });
    await expect.poll(() => card.textContent()).toContain('Track order');
    expect(await card.textContent()).toContain('→ https://shop.example/o/1');
    await page.goto(`${ctx.emu.url}/__/templates?appId=shop-app&template=order-confirmation`);
    const preview = page.getByRole('figure', { name: 'In-app message' }).first();
    await expect.poll(() => preview.textContent(), { timeout: 5000 }).toContain('Track order');
    expect(problems).toEqual([]);
  });

  it('campaign page: skipped upload rows, template by name and key, "not scheduled", a red failed end', async () => {
    const created = await fetch(`${ctx.emu.url}/api/campaigns`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ name: 'Blackout', templateId: 'black-friday-promo', deliveryMode: 'batch' }),
    });
    const { id } = (await created.json()) as { id: string };
    const form = new FormData();
    const csv = 'user_id,name,discount_code\nu1,Ada,BF-1\n,NoId,BF-2\nu1,Ada,BF-1\nu3,Grace,BF-3\n';
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'recipients.csv');
    form.append('campaignId', id);
    const { 'content-type': _json, ...auth } = HEADERS;
    expect(
      (await fetch(`${ctx.emu.url}/api/campaigns/upload`, { method: 'POST', headers: auth, body: form })).status,
    ).toBe(200);
    const { page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.emu.url}/__/campaigns/${id}`);
    await page.getByRole('heading', { level: 2, name: 'Last CSV upload' }).waitFor();
    expect(await page.getByText(/2 recipients added, 2 rows skipped/).count()).toBe(1);
    const skipped = page.getByRole('table', { name: 'Rows the upload skipped' });
    expect(await skipped.getByRole('row', { name: /^4 duplicate user_id$/ }).count()).toBe(1);
    expect(await skipped.getByRole('row').count()).toBe(3); // header + 2
    const template = page.getByRole('link', { name: 'Black Friday Promotion black-friday-promo' });
    expect(await template.getAttribute('href')).toBe('/__/templates?appId=shop-app&template=black-friday-promo');
    const lifecycle = page.getByRole('list', { name: /Lifecycle/ });
    expect(await lifecycle.getByRole('listitem').nth(1).textContent()).toBe('Scheduled for not scheduled');

    await ctx.emu.client.scenarios.activate(['campaign-blackout']);
    await sendCampaign(ctx.emu, id);
    const ended = lifecycle.getByRole('listitem').filter({ hasText: 'Ended (failed)' });
    await expect.poll(() => ended.getAttribute('class')).toContain('done');
    // the failure colour is the failed badge's border
    const red = await page
      .locator('.badge.s-failed')
      .first()
      .evaluate(new Function('el', 'return getComputedStyle(el).borderColor') as never);
    expect(await colourOf(ended, '::before')).toBe(red);
    expect(await colourOf(lifecycle.getByRole('listitem').first(), '::before')).not.toBe(red);
    expect(problems).toEqual([]);
  });

  it('overview: chart labels of 200,000 whole, full width; the memory line; the scheduled badge clock', async () => {
    await send(ctx.emu, ['u1']);
    const id = await campaign(ctx.emu, 'Later', ['c-1']);
    await sendCampaign(ctx.emu, id, '2030-11-30T00:00:00Z');
    const { page, problems } = await openPage(ctx.browser);
    // A heap near its limit, as /__health would report it in a 512 MiB container
    await page.route('**/__health', async (route) => {
      const real = await route.fetch();
      const health = (await real.json()) as Record<string, unknown>;
      health.memory = { rssBytes: 480 * MIB, heapUsedBytes: 310.4 * MIB, heapLimitBytes: 384 * MIB };
      await route.fulfill({ response: real, json: health });
    });
    // 200,000 deliveries in the last minute, as /__inspect/delivery-stats would answer them
    await page.route('**/__inspect/delivery-stats*', async (route) => {
      const real = await route.fetch();
      const stats = (await real.json()) as { buckets: { sent: number }[] };
      stats.buckets.at(-1)!.sent = 200_000;
      await route.fulfill({ response: real, json: stats });
    });
    await page.goto(`${ctx.emu.url}/__/overview`);
    const chart = page.getByRole('img', { name: /Deliveries per minute/ });
    await chart.waitFor();
    const top = chart.locator('text.tick', { hasText: '200,000' });
    expect(await top.count()).toBe(1);
    const box = (await top.boundingBox())!;
    const area = (await chart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(area.x);
    const main = (await page.locator('main').boundingBox())!;
    expect(area.width).toBeGreaterThan(main.width * 0.9);
    const memory = page.locator('dt', { hasText: /^Memory$/ }).locator('+ dd');
    expect(await memory.textContent()).toBe('480 MiB RSS, heap 310 MiB of 384 MiB (81%)');

    await page.goto(`${ctx.emu.url}/__/campaigns`);
    const badge = page.getByRole('row', { name: /Later/ }).locator('.badge.s-scheduled');
    await badge.waitFor();
    expect(await badge.textContent()).toBe(' scheduled');
    expect(await badge.locator('svg').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('deliveries list: ids and "realtime" on one line, a light "e.g." hint, the path readable at 420 px', async () => {
    await send(ctx.emu, ['user-1234567890ab']);
    const { page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.emu.url}/__/`);
    const row = page.getByRole('row', { name: /user-1234567890ab/ });
    expect(await linesOf(row.getByRole('cell', { name: 'user-1234567890ab' }))).toBe(1);
    expect(await linesOf(row.getByRole('cell', { name: 'realtime' }))).toBe(1);
    const since = page.getByLabel('Since');
    expect(await since.getAttribute('placeholder')).toBe('e.g. 2030-01-01T00:00:00Z');
    const hint = await since.evaluate(
      new Function('el', 'return getComputedStyle(el, "::placeholder").color') as never,
    );
    const typed = await since.evaluate(new Function('el', 'return getComputedStyle(el).color') as never);
    expect(hint).not.toBe(typed);

    const narrow = await openPage(ctx.browser, { width: 420 });
    await narrow.page.goto(`${ctx.emu.url}/__/requests`);
    const path = narrow.page.getByRole('row', { name: /notifications\/send/ }).locator('td.path');
    expect(await linesOf(path)).toBeLessThanOrEqual(2);
    expect([...problems, ...narrow.problems]).toEqual([]);
  });

  it('an empty store says "No deliveries yet" with the one curl that makes one', async () => {
    const { page, problems } = await openPage(ctx.browser);
    await page.goto(`${ctx.emu.url}/__/`);
    await page.getByText('No deliveries yet.').waitFor();
    const command = await page.getByLabel('A send with curl').textContent();
    // a template these fixtures have, with its sample values, to this emulator
    expect(command).toMatch(/^curl .*'http:\/\/127\.0\.0\.1:\d+\/api\/notifications\/send'/);
    expect(command).not.toContain('\n');
    // not execFileSync: the emulator answering the curl runs in this process
    await promisify(execFile)('sh', ['-c', command!]);
    await page.getByRole('cell', { name: 'user-000001' }).waitFor();
    expect(await page.getByText('No deliveries yet.').count()).toBe(0);
    // with a filter set, an empty list is "Nothing matches."
    await page.goto(`${ctx.emu.url}/__/?userId=nobody`);
    await page.getByText('Nothing matches.').waitFor();
    expect(problems).toEqual([]);
  });

  it("in strict mode the empty store's curl reads the app's key from $APIKEY", async () => {
    const strict = await startPageEmulator({ apps: [{ appId: 'shop-app', apiKey: 'shop-key' }] });
    try {
      const { page, problems } = await openPage(ctx.browser);
      await page.goto(`${strict.url}/__/`);
      await page.getByText(/put the app’s key in \$APIKEY first/).waitFor();
      const command = (await page.getByLabel('A send with curl').textContent())!;
      expect(command).toContain(`-H 'appid: shop-app' -H "apikey: $APIKEY"`);
      await promisify(execFile)('sh', ['-c', command], { env: { ...process.env, APIKEY: 'shop-key' } });
      await page.getByRole('cell', { name: 'user-000001' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});
