/**
 * The delivery log's reads (src/store/deliveries/delivery-reads.ts) in the cases its property
 * test rarely draws: counts per channel read from the channels' keys after the cap changed
 * which channel the log meets first, a time bound alone on a log whose clock went back, and
 * counts asked while the entry indexes are behind.
 */
import { describe, expect, it } from 'vitest';
import { createDeliveryLog, type CatchUpBudget } from '../../src/store/deliveries/delivery-log.js';
import type { Delivery } from '../../src/schemas/records.js';
import { delivery as recordOf } from '../helpers/store-contract/records.js';

const minuteMs = (m: number) => Date.UTC(2030, 0, 1, 0, m);

function delivery(n: number, minute: number, channels: string[], failed = false): Delivery {
  return recordOf(n, {
    appId: 'app',
    notificationId: `n-${n}`,
    userId: `u${n}`,
    templateId: 't',
    templateKey: 'welcome',
    channels: channels as Delivery['channels'],
    status: failed ? 'failed' : 'sent',
    failureReason: failed ? 'x' : null,
    createdAt: new Date(minuteMs(minute)).toISOString(),
  });
}

const never: CatchUpBudget = () => () => false;
const noTurns = { catchUpBudget: never, later: () => {} };

describe('delivery reads', () => {
  it('lists channels in the order the live log meets them, after the cap dropped the first', () => {
    const log = createDeliveryLog(3, [], 0, noTurns);
    log.add(delivery(1, 0, ['push']));
    log.add(delivery(2, 1, ['email']));
    log.add(delivery(3, 2, ['push']));
    // Indexed now: push's key is filed before email's.
    expect(log.countByChannelAndTime({}, 60_000).map((b) => b.channel)).toEqual(['push', 'push', 'email']);
    // The cap drops d1: email is now met first, push after it.
    log.add(delivery(4, 3, ['in_app', 'email']));
    expect(log.countByChannelAndTime({}, 60_000)).toEqual([
      { channel: 'email', start: minuteMs(1), sent: 1, failed: 0 },
      { channel: 'email', start: minuteMs(3), sent: 1, failed: 0 },
      { channel: 'push', start: minuteMs(2), sent: 1, failed: 0 },
      { channel: 'in_app', start: minuteMs(3), sent: 1, failed: 0 },
    ]);
  });

  it('lists the channels of the delivery met first in its own order', () => {
    const log = createDeliveryLog(2, [], 0, noTurns);
    log.add(delivery(1, 0, ['push']));
    log.add(delivery(2, 1, ['email', 'push']));
    expect(log.countByChannelAndTime({}, 60_000).map((b) => b.channel)).toEqual(['push', 'push', 'email']);
    // The cap drops d1: d2 is met first, through email then push.
    log.add(delivery(3, 2, ['sms']));
    expect(log.countByChannelAndTime({}, 60_000).map((b) => b.channel)).toEqual(['email', 'push', 'sms']);
  });

  it('answers a time bound alone on a log whose clock went back', () => {
    const log = createDeliveryLog(10, [], 0, noTurns);
    for (const [n, minute, failed] of [
      [1, 2, false],
      [2, 0, true],
      [3, 3, false],
      [4, 1, false],
    ] as const)
      log.add(delivery(n, minute, ['push'], failed));
    const ids = (filter: object) => log.query(filter, { offset: 0, limit: 10 }).items.map((d) => d.id);
    expect(ids({ until: minuteMs(1) })).toEqual(['d2', 'd4']);
    expect(log.query({ until: minuteMs(1) }, { offset: 0, limit: 10 }).total).toBe(2);
    expect(ids({ since: minuteMs(2) })).toEqual(['d1', 'd3']);
    expect(ids({ until: minuteMs(1), status: 'sent' })).toEqual(['d4']);
    expect(log.countByTime({ until: minuteMs(1) }, 60_000)).toEqual([
      { start: minuteMs(0), sent: 0, failed: 1 },
      { start: minuteMs(1), sent: 1, failed: 0 },
    ]);
    expect(log.countByTime({ since: minuteMs(1), until: minuteMs(2) }, 60_000)).toEqual([
      { start: minuteMs(1), sent: 1, failed: 0 },
      { start: minuteMs(2), sent: 1, failed: 0 },
    ]);
  });

  it('counts every delivery while the entry indexes are behind', () => {
    const stopAt = { entries: Infinity };
    const budget: CatchUpBudget = () => (done) => done >= stopAt.entries;
    const log = createDeliveryLog(10, [], 0, { catchUpBudget: budget, later: () => {} });
    log.add(delivery(1, 0, ['push']));
    expect(log.countByTime({}, 60_000)).toEqual([{ start: minuteMs(0), sent: 1, failed: 0 }]);
    // Two more, and no query may index any of them.
    stopAt.entries = 0;
    log.add(delivery(2, 0, ['push'], true));
    log.add(delivery(3, 1, ['email']));
    expect(log.countByTime({}, 60_000)).toEqual([
      { start: minuteMs(0), sent: 1, failed: 1 },
      { start: minuteMs(1), sent: 1, failed: 0 },
    ]);
    expect(log.countByChannelAndTime({}, 60_000).map((b) => b.channel)).toEqual(['push', 'email']);
  });
});
