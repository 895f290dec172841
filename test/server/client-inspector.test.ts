/**
 * The typed client's calls for the endpoints the web inspector reads: one delivery, delivery
 * stats, apps and templates with samples, over a real socket, admin token included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorClientError, startEmulator, type RunningEmulator } from '../../src/index.js';
import { manualClock, TEST_TEMPLATES } from '../helpers/app.js';

describe('client: inspector endpoints', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      host: '127.0.0.1',
      watch: false,
      logLevel: 'silent',
      templates: TEST_TEMPLATES,
      adminToken: 'tok',
      clock: manualClock('2030-01-01T10:00:00.000Z'),
    });
    const res = await fetch(`${emu.url}/api/notifications/send`, {
      method: 'POST',
      headers: { appid: 'a1', apikey: 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ template: { key: 'plain' }, targets: ['u1', 'u2'], mode: 'batch' }),
    });
    expect(res.status).toBe(200);
  });
  afterAll(() => emu?.close());

  it('reads one delivery, and names the 404', async () => {
    const [first] = (await emu.client.deliveries()).items;
    expect(await emu.client.delivery(first!.id)).toEqual(first);
    const error = await emu.client.delivery('nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorClientError);
    expect((error as EmulatorClientError).status).toBe(404);
  });

  it('reads delivery stats with instants as Date or text', async () => {
    const stats = await emu.client.deliveryStats({
      since: new Date('2030-01-01T09:00:00Z'),
      until: '2030-01-01T10:59:59Z',
      bucketMs: 3_600_000,
      appId: 'a1',
    });
    expect(stats.buckets).toEqual([
      { start: '2030-01-01T09:00:00.000Z', sent: 0, failed: 0 },
      { start: '2030-01-01T10:00:00.000Z', sent: 2, failed: 0 },
    ]);
    expect((await emu.client.deliveryStats()).totals).toEqual({ sent: 2, failed: 0 });
  });

  it('lists apps and an app’s templates with samples', async () => {
    expect((await emu.client.apps()).items.map((a) => a.appId)).toEqual(['a1']);
    const one = await emu.client.appTemplates('a1', { seed: 3 });
    expect(one.items.map((t) => t.key)).toContain('order-confirmation');
    expect(await emu.client.appTemplates('a1', { seed: 3 })).toEqual(one);
  });
});
