/**
 * Markup in what clients send (user ids, variables, names, scenario reasons, request bodies)
 * is shown as text in every view of the web inspector: nothing it holds runs, and nothing
 * it holds becomes an element.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { RunningEmulator } from '../../src/index.js';
import { campaign, HAS_BROWSER, HEADERS, launchBrowser, openPage, send, startPageEmulator } from './harness.js';

declare const window: { pwned?: number };
declare const document: { querySelectorAll(selector: string): { length: number } };

/** Each would set window.pwned if it ran; each would add an element with the `pwned` class if parsed as markup. */
const payload = (n: number) =>
  `<img class="pwned" src="x" onerror="window.pwned=${n}"><script>window.pwned=${n}</script>`;

describe.skipIf(!HAS_BROWSER)('web inspector: hostile markup', () => {
  let browser: Browser;
  let emu: RunningEmulator;
  let paths: string[];

  beforeAll(async () => {
    [browser, emu] = await Promise.all([
      launchBrowser(),
      startPageEmulator({
        scenarios: [
          {
            name: 'hostile',
            rules: [{ match: { userId: '*' }, fault: { failDelivery: payload(1) } }],
          },
        ],
      }),
    ]);
    const image = { url: 'javascript:window.pwned=2', width: 1, height: 1 };
    const action = { type: 'web', data: 'javascript:window.pwned=3' };
    const sent = await send(
      emu,
      [payload(4)],
      { name: payload(5), discount_code: payload(6), hero: image, shop: action },
      { headers: { 'x-emulator-scenario': 'hostile' } },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const campaignId = await campaign(emu, payload(7), ['ada'], payload(8));
    const channel = await fetch(`${emu.url}/api/channels`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ name: 'Alerts', type: 'in_app', templateType: 'ui' }),
    });
    expect(channel.status).toBe(200);
    const template = await fetch(`${emu.url}/api/templates`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ name: payload(9), channelIds: ['alerts'], variableSchema: [] }),
    });
    expect(template.status).toBe(200);
    const delivery = (await emu.client.deliveries({ limit: 1 })).items[0]!;
    const request = (await emu.client.requests({ path: '/api/notifications/send' })).items[0]!;
    paths = [
      '/__/',
      `/__/deliveries/${delivery.id}`,
      '/__/requests',
      `/__/requests/${request.id}`,
      '/__/campaigns',
      `/__/campaigns/${campaignId}`,
      '/__/scenarios',
      '/__/templates?app=shop-app',
      '/__/overview',
      '/__/reset',
    ];
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await emu?.close();
  });

  it('shows it as text in every view, and none of it runs', async () => {
    const { page } = await openPage(browser);
    for (const path of paths) {
      await page.goto(`${emu.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForTimeout(250); // lists and streams that fill in late
      expect(await page.evaluate(() => window.pwned), path).toBeUndefined();
      expect(await page.evaluate(() => document.querySelectorAll('.pwned, script:not([src])').length), path).toBe(0);
    }
    // The markup is there, as text: the list shows the user id as sent.
    await page.goto(`${emu.url}/__/`);
    await page.getByRole('cell', { name: payload(4) }).waitFor();
  });
});
