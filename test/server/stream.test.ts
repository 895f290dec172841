import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';

interface SseEvent {
  event: string;
  data: unknown;
}

/** Reads SSE frames from a fetch body; comments (heartbeats) are kept as event ":comment". */
function sseReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queued: SseEvent[] = [];
  async function next(): Promise<SseEvent> {
    for (;;) {
      const shifted = queued.shift();
      if (shifted) return shifted;
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (frame.startsWith(':')) {
          queued.push({ event: ':comment', data: frame.slice(1).trim() });
          continue;
        }
        const fields = Object.fromEntries(
          frame.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
        );
        queued.push({ event: fields.event ?? 'message', data: JSON.parse(fields.data ?? 'null') });
      }
    }
  }
  /** The next n events that are not comments. */
  async function take(n: number): Promise<SseEvent[]> {
    const out: SseEvent[] = [];
    while (out.length < n) {
      const e = await next();
      if (e.event !== ':comment') out.push(e);
    }
    return out;
  }
  return { next, take, cancel: () => reader.cancel() };
}

let emu: RunningEmulator | undefined;
/** An emulator on a free port of 127.0.0.1 with the test templates (closed after each test). */
const start = () =>
  startEmulator({ port: 0, host: '127.0.0.1', templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function api(method: string, path: string, body: unknown, appId = 'app-a') {
  const res = await fetch(`${emu!.url}${path}`, {
    method,
    headers: { appid: appId, apikey: 'key', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // A setup step: a refused request fails here rather than as a missing event later.
  expect(res.status, `${method} ${path}`).toBe(200);
  return res.json() as Promise<{ id: string }>;
}

async function open(query = '') {
  const res = await fetch(`${emu!.url}/__inspect/stream${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = sseReader(res);
  expect(await reader.next()).toEqual({ event: ':comment', data: 'connected' });
  return reader;
}

describe('GET /__inspect/stream', () => {
  it('streams campaign status changes and deliveries of a campaign, filtered by campaignId', async () => {
    emu = await start();
    const campaign = await api('POST', '/api/campaigns', { name: 'c', templateId: 'plain', deliveryMode: 'batch' });
    const stream = await open(`?campaignId=${campaign.id}&types=delivery,campaign`);
    await api('POST', `/api/campaigns/${campaign.id}/recipients`, { userIds: ['u1', 'u2'] });
    // filtered out:
    await api('POST', '/api/notifications/send', { template: { key: 'plain' }, targets: ['x'], mode: 'realtime' });
    await api('POST', `/api/campaigns/${campaign.id}/send`, {});
    const events = await stream.take(5);
    expect(events.map((e) => e.event)).toEqual(['campaign', 'campaign', 'delivery', 'delivery', 'campaign']);
    // Adding recipients changes the draft (its recipientCount): the stream says so too.
    expect(events[0]!.data).toMatchObject({ id: campaign.id, status: 'draft', recipientCount: 2 });
    expect(events[1]!.data).toMatchObject({ id: campaign.id, status: 'sending' });
    expect(events[2]!.data).toMatchObject({ campaignId: campaign.id, userId: 'u1', status: 'sent' });
    expect(events[4]!.data).toMatchObject({ id: campaign.id, status: 'sent', sentCount: 2 });
    await stream.cancel();
  });

  it('streams requests and deliveries filtered by appId and userId, and sends heartbeats', async () => {
    emu = await start();
    const byUser = await open('?userId=u-7');
    const byApp = await open('?appId=app-b&types=request&heartbeatMs=50');
    await api('POST', '/api/notifications/send', {
      template: { key: 'plain' },
      targets: ['u-1', 'u-7'],
      mode: 'batch',
    });
    await api(
      'POST',
      '/api/notifications/send',
      { template: { key: 'plain' }, targets: ['u-9'], mode: 'realtime' },
      'app-b',
    );
    const [delivery] = await byUser.take(1);
    expect(delivery).toMatchObject({ event: 'delivery', data: { userId: 'u-7', appId: 'app-a' } });
    const [request] = await byApp.take(1);
    expect(request).toMatchObject({
      event: 'request',
      data: { appId: 'app-b', method: 'POST', path: '/api/notifications/send', status: 200 },
    });
    let comment = await byApp.next();
    while (comment.event !== ':comment') comment = await byApp.next();
    expect(comment.data).toBe('heartbeat');
    await byUser.cancel();
    await byApp.cancel();
  });

  it('unsubscribes from the event bus when the client disconnects', async () => {
    emu = await start();
    const bus = emu.app.emulator.events;
    expect(bus.hasSubscribers()).toBe(false);
    const stream = await open();
    expect(bus.hasSubscribers()).toBe(true);
    await stream.cancel();
    for (let i = 0; i < 200 && bus.hasSubscribers(); i++) {
      // The server notices the closed socket on its next write or close event.
      await api('POST', '/api/notifications/send', { template: { key: 'plain' }, targets: ['x'], mode: 'realtime' });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(bus.hasSubscribers()).toBe(false);
  });

  it("takes the lists' filters: a delivery filter keeps deliveries, a request filter requests", async () => {
    emu = await start();
    const batches = await open('?templateKey=plain&mode=batch');
    const refused = await open('?status=400&path=/api/notifications/send');
    const sendBody = (key: string, mode: string) => ({ template: { key }, targets: ['u-1'], mode });
    await api('POST', '/api/notifications/send', sendBody('plain', 'realtime'));
    await api('POST', '/api/notifications/send', { ...sendBody('plain', 'batch'), targets: ['u-2'] });
    const bad = await fetch(`${emu.url}/api/notifications/send`, {
      method: 'POST',
      headers: { appid: 'app-a', apikey: 'key', 'content-type': 'application/json' },
      body: '{"targets": 5}',
    });
    expect(bad.status).toBe(400);
    const [delivery] = await batches.take(1);
    expect(delivery).toMatchObject({
      event: 'delivery',
      data: { mode: 'batch', userId: 'u-2' },
    });
    const [request] = await refused.take(1);
    expect(request).toMatchObject({ event: 'request', data: { status: 400, path: '/api/notifications/send' } });
    await batches.cancel();
    await refused.cancel();
  });

  it('answers 400 naming a status that is neither a delivery status nor an HTTP status', async () => {
    emu = await start();
    const res = await fetch(`${emu.url}/__inspect/stream?status=pending`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: 'ERR_BAD_REQUEST', details: { status: expect.stringContaining('sent or failed (deliveries)') } },
    });
  });

  it('answers 400 with the envelope for an unknown event type', async () => {
    emu = await start();
    const res = await fetch(`${emu.url}/__inspect/stream?types=delivery,bogus`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: 'ERR_BAD_REQUEST', details: { 'types.1': expect.stringContaining('must be one of delivery') } },
    });
  });
});

describe('GET /__inspect/stream: a slow reader', () => {
  it('drops events past the queue limit and says so with a dropped event, then goes on', async () => {
    emu = await start();
    const reader = await open('?types=delivery');
    // Two 10,000-target batches in one turn each: 20,000 events for a queue of 10,000.
    const batch = (n: number) => ({
      template: { key: 'plain' },
      mode: 'batch',
      targets: Array.from({ length: 10_000 }, (_, i) => `u${n}-${i}`),
    });
    await api('POST', '/api/notifications/send', batch(1));
    await api('POST', '/api/notifications/send', batch(2));
    let delivered = 0;
    let dropped: SseEvent | undefined;
    let sentLast = false;
    let pending: Promise<SseEvent> | null = null;
    for (;;) {
      // Once the queue is read out (nothing for 300 ms), one more send gets through after the notice.
      pending ??= reader.take(1).then(([e]) => e!);
      const event = await Promise.race([pending, new Promise<null>((resolve) => setTimeout(() => resolve(null), 300))]);
      if (event !== null) pending = null;
      if (event === null) {
        if (sentLast) throw new Error('the last delivery never came');
        sentLast = true;
        await api('POST', '/api/notifications/send', {
          template: { key: 'plain' },
          mode: 'realtime',
          targets: ['last'],
        });
        continue;
      }
      if (event.event === 'dropped') dropped = event;
      else delivered++;
      if (event.event === 'delivery' && (event.data as { userId?: string }).userId === 'last') break;
    }
    expect(dropped?.data).toMatchObject({ dropped: expect.any(Number), reason: expect.stringMatching(/too slowly/) });
    expect(delivered + (dropped!.data as { dropped: number }).dropped).toBe(20_001);
    await reader.cancel();
  });
});

describe('GET /__inspect/deliveries?waitFor= over a socket', () => {
  it('stops waiting, and listening, when the client hangs up', async () => {
    emu = await start();
    const bus = emu.app.emulator.events;
    expect(bus.hasSubscribers()).toBe(false);
    const client = new AbortController();
    const waiting = fetch(`${emu.url}/__inspect/deliveries?userId=nobody&waitFor=1&timeoutMs=300000`, {
      signal: client.signal,
    }).catch((error: unknown) => error);
    for (let i = 0; i < 400 && !bus.hasSubscribers(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(bus.hasSubscribers()).toBe(true);
    client.abort();
    expect(await waiting).toMatchObject({ name: 'AbortError' });
    // Without the hang-up noticed, the listener would stay for the whole 5-minute timeout.
    for (let i = 0; i < 200 && bus.hasSubscribers(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(bus.hasSubscribers()).toBe(false);
  });
});
