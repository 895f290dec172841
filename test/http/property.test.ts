import type { Delivery } from '../../src/index.js';
/**
 * Property-based: whatever JSON reaches the send endpoint or whatever query reaches the
 * inspect API, the answer is never a 5xx, and every 4xx carries the error envelope.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { call, makeTestApp, send, type CallResult, type List } from '../helpers/app.js';

const app = makeTestApp();

function expectClean(res: CallResult): void {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.body).toMatchObject({
      error: { code: expect.any(String), message: expect.any(String), devMessage: expect.any(String) },
    });
  }
}

const anyValue = fc.jsonValue({ maxDepth: 3 });
const sendShaped = fc.record(
  {
    template: fc.oneof(
      anyValue,
      fc.record(
        {
          key: fc.oneof(fc.constantFrom('plain', 'order-confirmation', 'greeting', 'draft-one', 'nope'), anyValue),
          id: fc.oneof(fc.constant('aaaaaaaaaaaaaaaaaaaaaaaa'), anyValue),
          variables: fc.oneof(
            fc.dictionary(fc.constantFrom('name', 'customerName', 'cta', 'banner', 'u1', 'x'), anyValue),
            anyValue,
          ),
          notificationPushData: anyValue,
        },
        { requiredKeys: [] },
      ),
    ),
    targets: fc.oneof(fc.array(fc.oneof(fc.string(), anyValue), { maxLength: 4 }), anyValue),
    mode: fc.oneof(fc.constantFrom('realtime', 'batch'), anyValue),
    title: anyValue,
    tag: anyValue,
  },
  { requiredKeys: [] },
);

describe('property: bad input never gives a 5xx', () => {
  it('arbitrary JSON values sent to /api/notifications/send', async () => {
    await fc.assert(
      fc.asyncProperty(anyValue, async (body) => expectClean(await send(app, body))),
      { numRuns: 150 },
    );
  });

  it('send-shaped objects with arbitrary field values', async () => {
    await fc.assert(
      fc.asyncProperty(sendShaped, async (body) => expectClean(await send(app, body))),
      { numRuns: 300 },
    );
  });

  it('arbitrary query strings on /__inspect/deliveries', async () => {
    const key = fc.constantFrom(
      'appId',
      'userId',
      'limit',
      'offset',
      'since',
      'until',
      'waitFor',
      'timeoutMs',
      'mode',
      'status',
      'x',
    );
    const query = fc.array(fc.tuple(key, fc.string({ maxLength: 12 })), { maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const qs = new URLSearchParams(pairs);
        if (qs.has('waitFor')) qs.set('timeoutMs', '0'); // no real waiting in a property run
        const res = await call<List<Delivery>>(app, 'GET', `/__inspect/deliveries?${qs}`);
        expect([200, 400, 408]).toContain(res.status);
        // 408 (waitFor timed out) answers the list of what matched, not an error.
        if (res.status === 408) expect(res.body).toMatchObject({ total: expect.any(Number), items: expect.any(Array) });
        else expectClean(res);
      }),
      { numRuns: 200 },
    );
  });
});
