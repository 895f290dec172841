/**
 * The screenshot generator (`npm run screenshots`, test/browser/screenshots.test.ts): a PNG of each
 * view of the web inspector over seeded data, the same bytes on every run on one machine. What
 * would differ from run to run is fixed: the data (seed, manual clock, request durations, uptime
 * and memory: seed.ts), the address the pages show (SHOWN_ORIGIN, whatever port the emulator got),
 * the window (viewport, scale, colour scheme, locale, time zone), the rendering (Chromium switches
 * below), animations and the caret (off), and the moment of the shot (nothing loading, fonts in).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningEmulator } from '../../src/index.js';
import { launchBrowser, openPage } from './harness.js';
import { seed, startSeeded } from './seed.js';

/** The origin the pictures show (as the README's examples use), mapped to the emulator's real port. */
const SHOWN_ORIGIN = 'http://localhost:4010';

/**
 * Rendering the same way each time. Partial re-raster left rounded corners antialiased
 * differently from run to run (the clock view's, 1 run in 2); the rest takes the machine out of
 * it: scale 1, one colour profile, grey-scale text, glyph hinting not left to fontconfig, Skia's
 * portable code rather than the paths it picks for the CPU.
 */
const STEADY_RENDERING = [
  '--force-device-scale-factor=1',
  '--force-color-profile=srgb',
  '--disable-lcd-text',
  '--disable-partial-raster',
  '--disable-skia-runtime-opts',
  '--font-render-hinting=none',
];

type Seeded = Awaited<ReturnType<typeof seed>> & { deliveryId: string; failedRequestId: string };

/** Each picture: its name, the view's address, and what shows it is drawn. */
const SHOTS: readonly [string, (s: Seeded) => string, string][] = [
  ['deliveries', () => '/__/', 'table tbody tr'],
  ['delivery', (s) => `/__/deliveries/${s.deliveryId}`, 'figure.push'],
  ['requests', () => '/__/requests', 'table tbody tr'],
  ['request', (s) => `/__/requests/${s.failedRequestId}`, 'main h1'],
  ['campaigns', () => '/__/campaigns', 'table tbody tr'],
  ['campaign', (s) => `/__/campaigns/${s.campaignId}`, '.timeline'],
  ['scenarios', () => '/__/scenarios', '[role=switch]'],
  ['clock', () => '/__/clock', 'table tbody tr'],
  ['templates', () => '/__/templates?appId=shop-app', 'details[open]'],
  ['overview', () => '/__/overview', 'svg.chart'],
  ['reset', () => '/__/reset', 'form'],
];
export const SHOT_NAMES = SHOTS.map(([name]) => name);

// The page globals the page.evaluate callbacks read (the Node typecheck has no DOM library).
declare const document: { fonts: { ready: Promise<unknown> } };
declare function requestAnimationFrame(callback: (now: number) => void): number;

/** Resolves once no request but the event stream has been in flight for three frames in a row, fonts loaded. */
async function settled(page: Page, inFlight: () => number): Promise<void> {
  for (let quiet = 0; quiet < 3;) {
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    quiet = inFlight() === 0 ? quiet + 1 : 0;
  }
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

async function shoot(browser: Browser, url: string, ready: string, path: string): Promise<string[]> {
  const { page, problems } = await openPage(browser, {
    context: { deviceScaleFactor: 1, reducedMotion: 'reduce', locale: 'en-US', timezoneId: 'UTC' },
  });
  let inFlight = 0;
  const counted = (url: string) => !url.includes('/__inspect/stream');
  page.on('request', (r) => void (counted(r.url()) && inFlight++));
  page.on('requestfinished', (r) => void (counted(r.url()) && inFlight--));
  page.on('requestfailed', (r) => void (counted(r.url()) && inFlight--));
  try {
    await page.goto(url);
    await page.waitForSelector(ready);
    await settled(page, () => inFlight);
    await page.screenshot({ path, animations: 'disabled', caret: 'hide', scale: 'css' });
    return problems;
  } finally {
    await page.context().close();
  }
}

/**
 * Seeds a fresh emulator and writes `<name>.png` into `outDir` for each view named in `only`
 * (all by default). Answers the files written and what went wrong on a page (console errors,
 * failed requests), which the caller reports.
 */
export async function takeScreenshots(
  outDir: string,
  only: readonly string[] = SHOT_NAMES,
): Promise<{ files: string[]; problems: string[] }> {
  mkdirSync(outDir, { recursive: true });
  const emu: RunningEmulator = await startSeeded();
  const port = new URL(emu.url).port;
  const browser = await launchBrowser([
    ...STEADY_RENDERING,
    `--host-resolver-rules=MAP ${new URL(SHOWN_ORIGIN).host} 127.0.0.1:${port}`,
  ]);
  const files: string[] = [];
  const problems: string[] = [];
  try {
    const seeded = await seed(emu);
    const first = await emu.client.deliveries({ limit: 1, offset: 0, templateKey: 'black-friday-promo' });
    const failed = await emu.client.requests({ status: 400, limit: 1 });
    const s: Seeded = { ...seeded, deliveryId: first.items[0]!.id, failedRequestId: failed.items[0]!.id };
    for (const [name, path, ready] of SHOTS) {
      if (!only.includes(name)) continue;
      const file = join(outDir, `${name}.png`);
      const found = await shoot(browser, `${SHOWN_ORIGIN}${path(s)}`, ready, file);
      problems.push(...found.map((p) => `${name}: ${p}`));
      files.push(file);
    }
  } finally {
    await browser.close();
    await emu.close();
  }
  return { files, problems };
}
