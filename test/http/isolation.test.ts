import type { Delivery, Health, JournalEntry, NotificationRecord } from '../../src/index.js';
/**
 * Isolation: two apps in one emulator see only their own records; two emulator instances
 * in one process share nothing (records, ids, seeds).
 */
import { describe, expect, it } from 'vitest';
import { call, makeTestApp, send, callOk, sendOk, type List } from '../helpers/app.js';

const plain = { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' };

describe('isolation', () => {
  it('two apps in one emulator: each filter sees only its own deliveries', async () => {
    const app = makeTestApp();
    await sendOk(app, plain, { appId: 'worker-1' });
    await sendOk(app, { ...plain, targets: ['u2'] }, { appId: 'worker-2' });
    const one = (await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?appId=worker-1')).body;
    const two = (await call<List<Delivery>>(app, 'GET', '/__inspect/deliveries?appId=worker-2')).body;
    expect(one.items.map((d) => d.userId)).toEqual(['u1']);
    expect(two.items.map((d) => d.userId)).toEqual(['u2']);
  });

  it('two instances in one process share nothing', async () => {
    const a = makeTestApp({ seed: 1 });
    const b = makeTestApp({ seed: 1 });
    await sendOk(a, plain);
    expect((await call<List<Delivery>>(b, 'GET', '/__inspect/deliveries')).body.total).toBe(0);
    expect((await call<List<NotificationRecord>>(b, 'GET', '/__inspect/notifications')).body.total).toBe(0);
    expect((await call<List<JournalEntry>>(b, 'GET', '/__inspect/requests')).body.total).toBe(0);
    await sendOk(b, plain, { appId: 'other' });
    expect((await call<List<Delivery>>(a, 'GET', '/__inspect/deliveries')).body.total).toBe(1);
    expect((await call<Health>(a, 'GET', '/__health')).body.apps).toBe(1);
  });

  it("different seeds give different ids; separate instances never reuse one app's records", async () => {
    const a = makeTestApp({ seed: 1 });
    const c = makeTestApp({ seed: 2 });
    const ra = await send(a, plain);
    const rc = await send(c, plain);
    expect(ra.body.notificationId).not.toBe(rc.body.notificationId);
    await callOk(a, 'DELETE', '/__inspect');
    expect((await call<List<Delivery>>(c, 'GET', '/__inspect/deliveries')).body.total).toBe(1);
  });
});
