/**
 * Realtime sends sealed into a block (single-block.ts): every field of every send reads back as
 * it was made, whatever the sends of the block share by value, by object or not at all.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runOf, SingleDelivery, SingleShares } from '../../src/store/deliveries/delivery-run.js';
import { sealSingles } from '../../src/store/deliveries/single-block.js';
import type { DeliveryBatch, Ids } from '../../src/domain/ports.js';

const RENDERERS = [(v: Record<string, unknown>) => ({ body: `hi ${String(v.name)}` }), () => ({ body: 'ho' })];
const CHANNELS = [['in_app'], ['in_app', 'push']];

/** One send's fields, each from a small pool, so that sends share some and differ in others. */
const sendArb = fc.record({
  renderer: fc.nat(1),
  channels: fc.nat(1),
  // Equal texts as different strings: a request parsed off the wire never shares its strings.
  app: fc.constantFrom('app-a', 'app-b'),
  template: fc.constantFrom('t1', 't2'),
  title: fc.constantFrom(null, '', 'Hello', '\u0000'),
  tag: fc.constantFrom(null, '', 'x', 'y"z'),
  pushData: fc.constantFrom(null, { deep: 1 }),
  campaign: fc.boolean(),
  counted: fc.boolean(),
  user: fc.constantFrom('u1', 'u2', 'ü3'),
  variables: fc.constantFrom({}, { name: 'Ada' }, { name: 'Bo', n: 2, list: [1, null] }),
  failed: fc.boolean(),
});

describe('sealed realtime sends', () => {
  it('read back every field as made, alike or not', () => {
    fc.assert(
      fc.property(fc.array(sendArb, { minLength: 1, maxLength: 40 }), (sends) => {
        const shares = new SingleShares();
        const singles = sends.map((send, serial) => {
          const prefix = `p${serial % 3}`;
          const idAt = () => (send.counted ? prefix + (serial + 0xabc).toString(16).padStart(6, '0') : `d${serial}`);
          const ids: Ids = {
            objectId: idAt,
            objectIds: () => ({ prefix, at: idAt, indexOf: (id) => (id === idAt() ? 0 : -1) }),
            notificationId: () => `n${serial}`,
          };
          const batch: DeliveryBatch = {
            shared: {
              appId: `${send.app}`,
              notificationId: send.campaign
                ? null
                : send.counted
                  ? `notif_${(serial + 1).toString(16).padStart(6, '0')}`
                  : `n-${serial}`,
              campaignId: send.campaign ? 'c1' : null,
              templateId: `${send.template}-id`,
              templateKey: `${send.template}`,
              channels: CHANNELS[send.channels]!,
              mode: 'realtime',
              title: send.title === null ? null : `${send.title}`,
              tag: send.tag === null ? null : `${send.tag}`,
              pushData: send.pushData,
              createdAt: new Date(Date.UTC(2030, 0, 1) + serial * 7).toISOString(),
            },
            userIds: [send.user],
            variables: { all: send.variables },
            render: RENDERERS[send.renderer]!,
            failures: send.failed ? new Map([[0, { reason: 'scripted', scenario: 's' }]]) : new Map(),
          };
          return new SingleDelivery(runOf(batch, ids), shares);
        });
        const sealed = sealSingles(singles);
        expect(sealed.map((s) => s.toDelivery())).toEqual(singles.map((s) => s.toDelivery()));
        sealed.forEach((s, i) => {
          const made = singles[i]!;
          expect([s.id, s.userId, s.status, s.failure]).toEqual([made.id, made.userId, made.status, made.failure]);
          expect({ ...s.profile, render: undefined }).toEqual({ ...made.profile, render: undefined });
          expect(s.profile.render).toBe(made.profile.render);
          expect(s.profile.channels).toBe(made.profile.channels);
        });
      }),
      { numRuns: 300 },
    );
  });
});
