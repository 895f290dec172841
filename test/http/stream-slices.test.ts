/**
 * GET /__inspect/stream writes a burst of events in slices: a reader that keeps up takes each
 * write at once, and without slices a 10,000-target batch would be written in one turn of the
 * event loop, holding every other request for as long (~200 ms). The test reads eagerly and
 * looks at how far the stream got by the time a callback queued behind the send runs.
 */
import { describe, expect, it } from 'vitest';
import { makeTestApp, sendOk } from '../helpers/app.js';

describe('GET /__inspect/stream', () => {
  it('lets the event loop turn between slices of a large burst, and still sends every event', async () => {
    const app = makeTestApp();
    const res = await app.request('/__inspect/stream?types=delivery');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let received = 0;
    let reading = true;
    const read = (async () => {
      let text = '';
      while (reading) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = text.indexOf('event: delivery\n')) >= 0) {
          received++;
          text = text.slice(at + 1);
        }
      }
    })();
    const targets = Array.from({ length: 10_000 }, (_, i) => `u-${i}`);
    await sendOk(app, { template: { key: 'plain' }, mode: 'batch', targets });
    // A turn of the event loop after the send: the stream has yielded long before 10,000 events.
    const atNextTurn = await new Promise<number>((resolve) => setImmediate(() => resolve(received)));
    expect(atNextTurn).toBeLessThan(10_000);
    for (let waited = 0; received < 10_000 && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received).toBe(10_000);
    reading = false;
    await reader.cancel();
    await read;
    await app.close();
  });
});
