/**
 * Inspect reads take turns on the event loop (src/http/middleware/take-turns.ts): a /__health
 * asked while a burst of inspect queries waits is answered first, not after all of
 * them; the queries are answered in the order they came.
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
    const order = done.filter((name) => name !== 'health').map((name) => Number(name.split(' ')[1]));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
