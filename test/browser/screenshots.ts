/**
 * `npm run screenshots`: a PNG of each view of the web inspector over seeded data, written to
 * docs/images/ (the README and docs/web-inspector.md show some of them).
 */
import { mkdirSync } from 'node:fs';
import { CHROMIUM, HAS_BROWSER, launchBrowser, openPage } from './harness.js';
import { seed, startSeeded } from './seed.js';

if (!HAS_BROWSER) {
  console.error(`No browser at ${CHROMIUM}: install chromium (apt-get install chromium) or set CHROMIUM_PATH.`);
  process.exit(2);
}
mkdirSync('docs/images', { recursive: true });
const emu = await startSeeded();
const browser = await launchBrowser();
try {
  const { campaignId } = await seed(emu);
  const first = (await emu.client.deliveries({ limit: 1, offset: 0, templateKey: 'black-friday-promo' })).items[0]!;
  const failedRequest = (await emu.client.requests({ status: 400 })).items[0];
  const shots: [string, string, string][] = [
    ['deliveries', '/__/', 'table tbody tr'],
    ['delivery', `/__/deliveries/${first.id}`, 'figure.push'],
    ['requests', '/__/requests', 'table tbody tr'],
    ['request', failedRequest ? `/__/requests/${failedRequest.id}` : '/__/requests', 'main h1, main .error'],
    ['campaigns', '/__/campaigns', 'table tbody tr'],
    ['campaign', `/__/campaigns/${campaignId}`, '.timeline'],
    ['scenarios', '/__/scenarios', '[role=switch]'],
    ['clock', '/__/clock', 'table tbody tr'],
    ['templates', '/__/templates?app=shop-app', 'details[open]'],
    ['overview', '/__/overview', 'svg.chart'],
    ['reset', '/__/reset', 'form'],
  ];
  for (const [name, path, ready] of shots) {
    const { page, problems } = await openPage(browser);
    await page.goto(`${emu.url}${path}`);
    await page.waitForSelector(ready);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `docs/images/${name}.png`, fullPage: false });
    if (problems.length) console.error(`${name}: ${problems.join('\n  ')}`);
    console.log(`docs/images/${name}.png`);
    await page.context().close();
  }
} finally {
  await browser.close();
  await emu.close();
}
