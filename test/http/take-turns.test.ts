/**
 * Inspect reads take turns on the event loop (src/reads/read-room.ts): a /__health
 * asked while a burst of inspect queries waits is answered first, not after all of them.
 */
import { describe, expect, it } from 'vitest';
import { makeTestApp, sendOk } from '../helpers/app.js';

describe('inspect reads take turns', () => {
  it('answers a /__health asked after a burst of 50 inspect queries before most of them', async () => {
    const app = makeTestApp();
    await sendOk(app, { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
    const done: string[] = [];
    const track = (name: string, answer: Response | Promise<Response>) =>
      Promise.resolve(answer).then(async (res) => {
        expect(res.status, name).toBe(200);
        await res.arrayBuffer();
        done.push(name);
      });
    const paths = ['/__inspect/deliveries', '/__inspect/requests', '/__inspect/notifications', '/__apps'];
    const queries = Array.from({ length: 50 }, (_, i) => track(`query ${i}`, app.request(paths[i % paths.length]!)));
    const health = track('health', app.request('/__health'));
    await Promise.all([...queries, health]);
    expect(done.indexOf('health')).toBeLessThan(5);
    expect(done).toHaveLength(51);
  });

  it('answers a /__health asked after 50 analytics reads of the API before most of them', async () => {
    const app = makeTestApp();
    await sendOk(app, { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
    const done: string[] = [];
    const headers = { appid: 'app-test', apikey: 'key-test' };
    const track = (name: string, answer: Promise<Response>) =>
      answer.then(async (res) => {
        expect(res.status, name).toBe(200);
        await res.arrayBuffer();
        done.push(name);
      });
    const day = new Date().toISOString().slice(0, 10);
    const paths = ['/api/analytics/users/u1', `/api/analytics/channels?from=${day}&to=${day}`];
    const reads = Array.from({ length: 50 }, (_, i) =>
      track(`read ${i}`, Promise.resolve(app.request(paths[i % 2]!, { headers }))),
    );
    const health = track('health', Promise.resolve(app.request('/__health')));
    await Promise.all([...reads, health]);
    expect(done.indexOf('health')).toBeLessThan(5);
    expect(done).toHaveLength(51);
  });
});
