/**
 * Delivery filters the store answers from its indexes' counts (src/store/delivery-index.ts,
 * delivery-query.ts): a status with two other fields reads the entries common to both keys,
 * with their sent and failed members recounted; earlier sends with failures must not leak
 * into those counts. Every answer is compared with filtering the whole list.
 */
import { describe, expect, it } from 'vitest';
import { createNotificationService } from '../../src/domain/notifications.js';
import type { DeliveryFilter } from '../../src/domain/ports.js';
import type { SendNotificationBody } from '../../src/schemas/notifications.js';
import type { Delivery } from '../../src/schemas/records.js';
import { sendDeps } from '../helpers/send-deps.js';

type Send = [appId: string, key: 'plain' | 'greeting', targets: string[], failing: string[]];

/** Sends in both apps, both templates and both modes, most of them with failures, some all failed. */
const SENDS: Send[] = [
  ['app', 'plain', ['a', 'b', 'c'], ['b']],
  ['app', 'greeting', ['a', 'd'], ['a', 'd']],
  ['app', 'plain', ['e'], ['e']],
  ['other', 'plain', ['f', 'g'], ['g']],
  ['app', 'greeting', ['b'], []],
  ['app', 'plain', ['h', 'i', 'j'], ['h', 'j']],
  ['other', 'greeting', ['m'], ['m']],
  ['app', 'greeting', ['k', 'l'], ['l']],
  ['app', 'plain', ['n'], []],
];

function sent() {
  const { deps } = sendDeps();
  const service = createNotificationService(deps);
  for (const [appId, key, targets, failing] of SENDS) {
    const body: SendNotificationBody = {
      template: key === 'greeting' ? { key, variables: { name: 'Ada' } } : { key },
      targets,
      mode: targets.length > 1 ? 'batch' : 'realtime',
    };
    service.send(appId, body, ({ userId }) =>
      failing.includes(userId) ? { reason: 'unreachable', scenario: 's' } : null,
    );
  }
  return deps.store;
}

const matches = (d: Delivery, filter: DeliveryFilter) =>
  Object.entries(filter).every(([field, value]) =>
    field === 'channel' ? d.channels.includes(value as never) : d[field as keyof Delivery] === value,
  );

const OTHERS: DeliveryFilter[] = [
  { appId: 'app', templateKey: 'plain' },
  { appId: 'app', mode: 'batch' },
  { templateKey: 'plain', mode: 'batch' },
  { templateKey: 'greeting', mode: 'realtime' },
  { appId: 'app', templateKey: 'greeting', mode: 'batch' },
  { templateKey: 'plain', channel: 'in_app' },
];

describe('a status filter with other delivery filters', () => {
  const store = sent();
  const all = store.queryDeliveries({}, { offset: 0, limit: 100 }).items;

  it('has sends with failures before and between the ones each filter keeps', () => {
    expect(all).toHaveLength(SENDS.reduce((n, [, , targets]) => n + targets.length, 0));
    expect(all.filter((d) => d.status === 'failed')).toHaveLength(9);
  });

  for (const others of OTHERS)
    for (const status of ['sent', 'failed'] as const) {
      const filter = { ...others, status };
      it(`counts and pages ${JSON.stringify(filter)} as filtering every delivery does`, () => {
        const expected = all.filter((d) => matches(d, filter)).map((d) => d.id);
        expect(expected.length).toBeGreaterThan(0);
        for (const order of ['asc', 'desc'] as const)
          for (const [offset, limit] of [
            [0, 100],
            [1, 2],
          ] as const) {
            const page = store.queryDeliveries(filter, { offset, limit, order });
            const ids = order === 'asc' ? expected : [...expected].reverse();
            expect({ total: page.total, ids: page.items.map((d) => d.id) }).toEqual({
              total: expected.length,
              ids: ids.slice(offset, offset + limit),
            });
          }
      });
    }
});
