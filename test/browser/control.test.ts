/**
 * Driving the emulator from the page: a campaign's live progress, a scenario switched on,
 * the clock moved to start a scheduled campaign, and the admin-token flow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { CreateAppOptions, RunningEmulator } from '../../src/index.js';
import { campaign, HAS_BROWSER, launchBrowser, openPage, send, startPageEmulator, sendCampaign } from './harness.js';

const SEND_OUTAGE = {
  name: 'send-outage',
  description: 'Every one-call send fails with 500 ERR_OPERATION_FAILED.',
  rules: [{ match: { method: 'POST', path: '/api/notifications/send' }, fault: { error: 'ERR_OPERATION_FAILED' } }],
};

const start = (options: CreateAppOptions = {}): Promise<RunningEmulator> =>
  startPageEmulator({
    scenarios: [SEND_OUTAGE],
    ...options,
  });

describe.skipIf(!HAS_BROWSER)('web inspector: driving the emulator', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("moves a campaign's progress bar to 100 % and its status to sent while the page is open", async () => {
    const emu = await start();
    try {
      const id = await campaign(
        emu,
        'Live progress',
        Array.from({ length: 3000 }, (_, i) => `user-${i}`),
      );
      const { page, problems } = await openPage(browser);
      await page.goto(`${emu.url}/__/campaigns/${id}`);
      const bar = page.getByRole('progressbar', { name: 'Progress of Live progress' });
      expect(await bar.getAttribute('aria-valuenow')).toBe('0');
      await page.getByRole('heading', { name: 'Live progress' }).waitFor();
      await sendCampaign(emu, id);
      await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 10_000 }).toBe('100');
      await page.getByRole('heading', { name: 'Live progress' }).waitFor();
      await expect
        .poll(() => page.locator('.title-row, p').filter({ hasText: '· batch ·' }).first().textContent())
        .toContain('sent');
      expect(await bar.getAttribute('aria-valuetext')).toBe('100 % · 3000 sent, 0 failed, 0 pending of 3000');
      expect(await page.getByRole('list', { name: /Lifecycle/ }).textContent()).toContain(
        'Started 2030-11-29 08:00:00',
      );
      expect(problems).toEqual([]);
    } finally {
      await emu.close();
    }
  });

  it('switching a scenario on in the page makes the next API send fail with its error', async () => {
    const emu = await start();
    try {
      const { page, problems } = await openPage(browser);
      await page.goto(`${emu.url}/__/scenarios`);
      const toggle = page.getByRole('switch', { name: 'send-outage active' });
      expect(await toggle.getAttribute('aria-checked')).toBe('false');
      await page.getByText('rule 1: POST /api/notifications/send → fail with ERR_OPERATION_FAILED').waitFor();
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
      const res = await send(emu, ['u1']);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ error: { code: 'ERR_OPERATION_FAILED' } });
      // the counters move on the page
      await expect
        .poll(() => page.getByRole('row', { name: /ERR_OPERATION_FAILED/ }).textContent(), { timeout: 5000 })
        .toMatch(/11unlimited$/);
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
      expect((await send(emu, ['u1'])).status).toBe(200);
      expect(problems).toEqual([]);
    } finally {
      await emu.close();
    }
  });

  it('advancing the clock in the page starts a scheduled campaign', async () => {
    const emu = await start();
    try {
      const id = await campaign(emu, 'Morning push', ['a', 'b']);
      await sendCampaign(emu, id, '2030-11-29T08:30:00Z');
      const { page, problems } = await openPage(browser);
      await page.goto(`${emu.url}/__/clock`);
      const row = page.getByRole('row', { name: /Morning push/ });
      await expect.poll(() => row.textContent()).toContain('30 min 00 s');
      await page.getByRole('button', { name: '+1 hour' }).click();
      await page.getByText('No campaign is scheduled.').waitFor();
      await expect.poll(async () => (await emu.client.campaign(id)).status).toBe('sent');
      expect((await emu.client.clock.get()).now).toBe('2030-11-29T09:00:00.000Z');
      await page.getByRole('button', { name: '+1 minute' }).click();
      await expect.poll(() => page.locator('.big').textContent()).toContain('2030-11-29 09:01:00');
      expect(problems).toEqual([]);
    } finally {
      await emu.close();
    }
  });

  it('asks for the admin token once, keeps it for the tab, and says when it is wrong', async () => {
    const emu = await start({ adminToken: 'open-sesame' });
    try {
      await send(emu, ['token-user']);
      const { page, problems } = await openPage(browser);
      await page.goto(`${emu.url}/__/`);
      await page.getByRole('heading', { name: 'Admin token' }).waitFor();
      expect(await page.getByRole('cell', { name: 'token-user' }).count()).toBe(0);
      await page.getByLabel('Admin token').fill('wrong');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('That token was refused.').waitFor();
      await page.getByLabel('Admin token').fill('open-sesame');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('cell', { name: 'token-user' }).waitFor();
      // the live stream carries the token too
      await page.getByText('Live: new deliveries appear at the top.').waitFor();
      await send(emu, ['token-user-2']);
      await page.getByRole('cell', { name: 'token-user-2' }).waitFor({ timeout: 2000 });
      // kept for the tab: other views and a reload need no new prompt
      await page.getByRole('link', { name: 'Overview' }).click();
      await page.getByText('strict', { exact: false }).or(page.getByText('open (any appid/apikey)')).first().waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Admin token' }).count()).toBe(0);
      // the two refused calls of the prompt are the only failed requests
      expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    } finally {
      await emu.close();
    }
  });

  it("shows a failed request's bodies and headers (key masked) and a curl that replays it", async () => {
    const emu = await start();
    try {
      const refused = await send(emu, ['u1'], { name: 'Ada' }); // discount_code missing
      expect(refused.status).toBe(400);
      const { page, problems } = await openPage(browser);
      await page.goto(`${emu.url}/__/requests?status=400`);
      await page.getByRole('link', { name: 'Request POST /api/notifications/send' }).click();
      await page.getByRole('heading', { name: 'POST /api/notifications/send' }).waitFor();
      expect(await page.getByLabel('Response body').textContent()).toContain('ERR_INVALID_VARIABLES');
      expect(await page.getByLabel('Request body').textContent()).toContain('"name": "Ada"');
      expect(await page.getByRole('row', { name: /^apikey/ }).textContent()).toBe('apikey***');
      const curl = (await page.getByLabel('curl command').textContent())!;
      expect(curl).toMatch(/^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/notifications\/send'/);
      expect(curl).toContain("-H 'apikey: <apikey>'");
      expect(curl).toContain("-H 'appid: shop-app'");
      expect(curl).toContain('--data-binary \'{"template"');
      expect(problems).toEqual([]);
    } finally {
      await emu.close();
    }
  });

  it('resets one app or everything only after a confirmation', async () => {
    const emu = await start();
    try {
      await send(emu, ['u1']);
      await send(emu, ['u2'], undefined, { headers: { appid: 'other-app' } });
      const { page, problems } = await openPage(browser);
      await page.goto(`${emu.url}/__/reset`);
      await page.getByLabel(/^App/).fill('other-app');
      await page.getByRole('button', { name: 'Reset…' }).click();
      await page.getByText('This clears everything of app "other-app"', { exact: false }).waitFor();
      expect((await emu.client.deliveries()).total).toBe(2); // nothing yet
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Reset…' }).click();
      await page.getByRole('button', { name: 'Yes, reset other-app' }).click();
      await page.getByText('App "other-app" was reset.').waitFor();
      expect((await emu.client.deliveries()).items.map((d) => d.appId)).toEqual(['shop-app']);
      await page.getByLabel(/^App/).fill('');
      await page.getByRole('button', { name: 'Reset…' }).click();
      await page.getByRole('button', { name: 'Yes, reset everything' }).click();
      await page.getByText('Everything was reset.').waitFor();
      expect((await emu.client.deliveries()).total).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
