/**
 * Browser-test plumbing: Debian's chromium driven by playwright-core (CHROMIUM_PATH or
 * /usr/bin/chromium), one browser per test file, a fresh page per test that records console
 * errors and failed requests, and API helpers that act as a user's app would.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { EmulatorClock, startEmulator, type CreateAppOptions, type RunningEmulator } from '../../src/index.js';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Where a page test's manual clock starts. */
export const PAGE_CLOCK_START = '2030-11-29T08:00:00.000Z';

/** An emulator for a page test: the repo's example fixtures, a manual clock, no scenarios unless given. */
export function startPageEmulator(options: CreateAppOptions = {}): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    host: '127.0.0.1',
    watch: false,
    logLevel: 'silent',
    fixturesDir: 'fixtures',
    scenarios: [],
    clock: new EmulatorClock(PAGE_CLOCK_START),
    ...options,
  });
}
export const HAS_BROWSER = existsSync(CHROMIUM);

/**
 * For a describe block: one browser for all its tests and a fresh page emulator for each (closed
 * after it). Read `browser` and `emu` inside the tests, not at describe time.
 */
export function browserWithFreshEmulator(options: CreateAppOptions = {}): {
  readonly browser: Browser;
  readonly emu: RunningEmulator;
} {
  const state = {} as { browser: Browser; emu: RunningEmulator };
  beforeAll(async () => {
    state.browser = await launchBrowser();
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  beforeEach(async () => {
    state.emu = await startPageEmulator(options);
    return () => state.emu.close();
  });
  return state;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `args`: switches beyond CHROMIUM_ARGS (the screenshot generator's, for pixels the same on every run). */
export function launchBrowser(args: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args], headless: true });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and failed requests (aborted streams on navigation excepted). */
  problems: string[];
}

export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; context?: BrowserContextOptions } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    ...options.context,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(5000); // a missing element fails the test with its locator, well before the test timeout
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText ?? '';
    if (why.includes('ERR_ABORTED')) return; // a stream or fetch the page aborted on leaving a view
    problems.push(`request failed: ${r.url()} ${why}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return { page, problems };
}

export const HEADERS = { appid: 'shop-app', apikey: 'shop-key', 'content-type': 'application/json' };

/** A tiny picture as a data: URL, so image tests need no network. */
export const IMAGE_URL =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><rect width="600" height="300" fill="#0b5fd1"/>' +
      '<text x="40" y="170" font-size="64" fill="#fff" font-family="sans-serif">BLACK FRIDAY</text></svg>',
  );

export async function send(
  emu: RunningEmulator,
  targets: string[],
  variables: Record<string, unknown> = { name: 'Ada', discount_code: 'BF-ADA' },
  extra: { template?: string; headers?: Record<string, string>; mode?: string } = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${emu.url}/api/notifications/send`, {
    method: 'POST',
    headers: { ...HEADERS, ...extra.headers },
    body: JSON.stringify({
      template: { key: extra.template ?? 'black-friday-promo', variables },
      targets,
      mode: extra.mode ?? (targets.length > 1 ? 'batch' : 'realtime'),
    }),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Creates a campaign for black-friday-promo with `users` as recipients (CSV upload); returns its id. */
export async function campaign(emu: RunningEmulator, name: string, users: string[], tag = 'seasonal'): Promise<string> {
  const created = await fetch(`${emu.url}/api/campaigns`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ name, templateId: 'black-friday-promo', deliveryMode: 'batch', tag }),
  });
  const { id } = (await created.json()) as { id: string };
  const form = new FormData();
  const csv = ['user_id,name,discount_code', ...users.map((u, i) => `${u},Name ${i},BF-${i}`)].join('\n');
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'recipients.csv');
  form.append('campaignId', id);
  const { 'content-type': _ignored, ...auth } = HEADERS;
  const uploaded = await fetch(`${emu.url}/api/campaigns/upload`, { method: 'POST', headers: auth, body: form });
  if (!uploaded.ok) throw new Error(`upload answered ${uploaded.status}: ${await uploaded.text()}`);
  return id;
}

export async function sendCampaign(emu: RunningEmulator, id: string, scheduledAt?: string): Promise<void> {
  const res = await fetch(`${emu.url}/api/campaigns/${id}/send`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(scheduledAt ? { scheduledAt } : {}),
  });
  if (!res.ok) throw new Error(`send answered ${res.status}: ${await res.text()}`);
}
