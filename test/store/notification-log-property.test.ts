/**
 * The notification log (cap, by-id index built on demand, retain) against a plain array.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createNotificationLog } from '../../src/store/notifications/notification-log.js';
import type { NotificationRecord } from '../../src/schemas/records.js';

const record = (n: number, appId: string): NotificationRecord => ({
  notificationId: `notif_${n}`,
  templateKey: 'welcome',
  channels: ['push'],
  mode: 'realtime',
  title: null,
  tag: null,
  sentFrom: 'api',
  createdAt: '2030-01-01T00:00:00.000Z',
  appId,
  templateId: 't1',
  targetCount: 1,
  sentCount: 1,
  failedCount: 0,
});

type Op =
  | { kind: 'add'; app: string }
  | { kind: 'byId'; n: number }
  | { kind: 'retain'; app: string }
  | { kind: 'list'; app: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), app: fc.constantFrom('a', 'b') }),
  fc.record({ kind: fc.constant('byId' as const), n: fc.nat(30) }),
  fc.record({ kind: fc.constant('retain' as const), app: fc.constantFrom('a', 'b') }),
  fc.record({ kind: fc.constant('list' as const), app: fc.constantFrom('a', 'b') }),
);

describe('notification log against an array model', () => {
  it('finds by id, lists and drops exactly as a capped array would', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60, size: 'max' }), fc.integer({ min: 1, max: 8 }), (ops, cap) => {
        const log = createNotificationLog(cap);
        let model: NotificationRecord[] = [];
        ops.forEach((op, serial) => {
          if (op.kind === 'add') {
            const r = record(serial, op.app);
            log.add(r);
            model = [...model, r].slice(-cap);
          } else if (op.kind === 'retain') {
            log.retain((r) => r.appId !== op.app);
            model = model.filter((r) => r.appId !== op.app);
          } else if (op.kind === 'byId') {
            const found = model.filter((r) => r.notificationId === `notif_${op.n}`);
            expect(log.query({ notificationId: `notif_${op.n}` }, { offset: 0, limit: 5 })).toEqual({
              total: found.length,
              items: found,
            });
          } else {
            const listed = model.filter((r) => r.appId === op.app);
            expect(log.query({ appId: op.app }, { offset: 0, limit: 100 })).toEqual({
              total: listed.length,
              items: listed,
            });
          }
          expect(log.length).toBe(model.length);
        });
        expect(log.toArray()).toEqual(model);
        // Unfiltered pages (index arithmetic) and desc order, against the model.
        for (const [offset, limit] of [
          [0, 3],
          [1, 2],
          [cap, 1],
        ] as const) {
          expect(log.query({}, { offset, limit })).toEqual({
            total: model.length,
            items: model.slice(offset, offset + limit),
          });
          expect(log.query({}, { offset, limit, order: 'desc' })).toEqual({
            total: model.length,
            items: [...model].reverse().slice(offset, offset + limit),
          });
          const appA = model.filter((r) => r.appId === 'a').reverse();
          expect(log.query({ appId: 'a' }, { offset, limit, order: 'desc' })).toEqual({
            total: appA.length,
            items: appA.slice(offset, offset + limit),
          });
        }
      }),
      { numRuns: 300, seed: 20261123 },
    );
  });
});
